/**
 * The built-in tools an agent gets besides its MCP servers' tools. Their names hold no `__`, so they
 * never clash with server tools (offered as `<server>__<tool>`):
 *
 * - `set_context` `{values: {key: value}}`: writes context state keys under the same rule as the API
 *   (all keys or none; only writable keys; `null` deletes a key). Offered when some key is writable.
 * - `remember` `{text}`, `recall` `{query, limit?}`, `forget` `{id}`: long-term memory. Offered when
 *   `context.memory_provider` is not `none`.
 * - `read_secret` `{name}`: the value of one of the process's secrets. Offered when secrets are enabled; the
 *   tool's description lists the names, never values. The value goes to the model only: the run log,
 *   the journal, the conversation and the reply have every secret value replaced by `[REDACTED]`.
 *
 * @module
 */

import type { ToolSpec } from "../models/mod.ts";
import type { ToolOutcome } from "./mcp/mod.ts";

/** What `set_context` needs of the context store. */
export interface ContextAccess {
  /** State and writable keys (`writable_keys` null when every key is writable). */
  view(): { state: Record<string, unknown>; writable_keys: string[] | null; all_keys_writable: boolean };
  /** Writes all keys or none; rejects naming refused keys. */
  write(values: Record<string, unknown>, source: "agent"): Promise<void>;
}

/** What the memory tools need of the memory store. */
export interface MemoryAccess {
  /** Stores a text; answers its id. */
  add(text: string, metadata?: Record<string, unknown>): Promise<string>;
  /** The most relevant memories. */
  search(
    query: string,
    options?: { limit?: number; minScore?: number },
  ): Promise<Array<{ id: string; text: string; score: number }>>;
  /** Forgets one memory; false when unknown. */
  delete(id: string): Promise<boolean>;
}

/** What `read_secret` needs of the secret store. */
export interface SecretAccess {
  /** Metadata of the declared secrets (names, never values). */
  metadata(): { secrets: Array<{ name: string }> };
  /** The current value, or undefined when unknown, expired or revoked. */
  get(name: string): string | undefined;
}

/** One built-in tool. */
interface BuiltinTool {
  spec: ToolSpec;
  run(args: Record<string, unknown>): Promise<ToolOutcome>;
}

/** Names of the built-in tools. */
export const BUILTIN_TOOL_NAMES = ["set_context", "remember", "recall", "forget", "read_secret"] as const;

function ok(content: string): ToolOutcome {
  return { content, isError: false };
}

function refused(content: string): ToolOutcome {
  return { content, isError: true };
}

function object(properties: Record<string, unknown>, required: string[]): Record<string, unknown> {
  return { type: "object", properties, required, additionalProperties: false };
}

/** Sources of the built-in tools; each is offered only when its store is given and usable. */
export interface BuiltinSources {
  /** The context store. */
  context?: ContextAccess;
  /** The memory store. */
  memory?: MemoryAccess;
  /** The secret store (only when secrets are enabled). */
  secrets?: SecretAccess;
  /** Memories `recall` answers by default. */
  memoryMax?: number;
}

/** The built-in tools for these stores, by name. */
export function builtinTools(sources: BuiltinSources): Map<string, BuiltinTool> {
  const tools = new Map<string, BuiltinTool>();
  const { context, memory, secrets } = sources;
  const view = context?.view();
  if (context && view && (view.all_keys_writable || (view.writable_keys?.length ?? 0) > 0)) {
    const which = view.all_keys_writable ? "any key" : `these keys: ${view.writable_keys!.join(", ")}`;
    tools.set("set_context", {
      spec: {
        name: "set_context",
        description: `Write context state (kept across runs). You may write ${which}. ` +
          "All keys are written or none; null deletes a key.",
        inputSchema: object({ values: { type: "object", description: "Keys and their new JSON values." } }, [
          "values",
        ]),
      },
      run: async (args) => {
        const values = args.values;
        if (typeof values !== "object" || values === null || Array.isArray(values)) {
          return refused("`values` must be an object of keys and values.");
        }
        try {
          await context.write(values as Record<string, unknown>, "agent");
          return ok(`Written: ${Object.keys(values).join(", ") || "(nothing)"}.`);
        } catch (error) {
          const keys = (error as { details?: { keys?: string[] } }).details?.keys;
          return refused(
            keys ? `Not writable: ${keys.join(", ")}. Nothing was written.` : "Nothing was written.",
          );
        }
      },
    });
  }
  if (memory) addMemoryTools(tools, memory, sources.memoryMax ?? 5);
  if (secrets) {
    const names = secrets.metadata().secrets.map((secret) => secret.name);
    tools.set("read_secret", {
      spec: {
        name: "read_secret",
        description: `Read one of your secrets by name (${names.join(", ") || "none declared"}). ` +
          "Use the value only where it is needed (for example a tool argument); never repeat it in replies.",
        inputSchema: object({ name: { type: "string", enum: names } }, ["name"]),
      },
      run: (args) => {
        const name = typeof args.name === "string" ? args.name : "";
        const value = secrets.get(name);
        return Promise.resolve(value === undefined ? refused(`No active secret named ${name}.`) : ok(value));
      },
    });
  }
  return tools;
}

function addMemoryTools(tools: Map<string, BuiltinTool>, memory: MemoryAccess, memoryMax: number): void {
  tools.set("remember", {
    spec: {
      name: "remember",
      description:
        "Store a fact in long-term memory (kept across runs; relevant memories appear in your prompt).",
      inputSchema: object({ text: { type: "string", minLength: 1 } }, ["text"]),
    },
    run: async (args) => {
      if (typeof args.text !== "string" || args.text.trim() === "") {
        return refused("`text` must be non-empty.");
      }
      return ok(`Remembered as ${await memory.add(args.text)}.`);
    },
  });
  tools.set("recall", {
    spec: {
      name: "recall",
      description: "Search long-term memory.",
      inputSchema: object({
        query: { type: "string", minLength: 1 },
        limit: { type: "integer", minimum: 1, maximum: 50 },
      }, ["query"]),
    },
    run: async (args) => {
      if (typeof args.query !== "string") return refused("`query` must be a string.");
      const limit = typeof args.limit === "number"
        ? Math.min(50, Math.max(1, Math.floor(args.limit)))
        : memoryMax;
      const found = await memory.search(args.query, { limit });
      return ok(JSON.stringify(found.map((m) => ({ id: m.id, text: m.text, score: round(m.score) }))));
    },
  });
  tools.set("forget", {
    spec: {
      name: "forget",
      description: "Forget one memory by id.",
      inputSchema: object({ id: { type: "string", minLength: 1 } }, ["id"]),
    },
    run: async (args) => {
      if (typeof args.id !== "string") return refused("`id` must be a string.");
      return (await memory.delete(args.id)) ? ok(`Forgot ${args.id}.`) : refused(`No memory ${args.id}.`);
    },
  });
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
