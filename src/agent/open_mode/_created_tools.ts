/**
 * Tools an open-mode agent created: name, description, JSON Schema of the arguments (offered to the
 * model as given; the code checks its own arguments) and code run in the sandbox per call.
 *
 * @module
 */

import type { ToolOutcome } from "../mcp/mod.ts";
import { MAX_TOOL_OUTPUT_CHARS } from "../mcp/mod.ts";
import { MAX_TOOL_CODE_CHARS, runSandboxed } from "./tool_sandbox.ts";

/** The arguments of `create_tool`, as the model sent them. */
export interface CreateToolInput {
  name: unknown;
  description: unknown;
  input_schema?: unknown;
  code: unknown;
}

/** A created tool. */
export interface CreatedTool {
  /** Name offered to the model. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** JSON Schema of its arguments. */
  inputSchema: Record<string, unknown>;
  /** Its code (a module with a default export function). */
  code: string;
}

/** Longest description of a created tool, in characters. */
const MAX_DESCRIPTION_CHARS = 1_000;
/** Longest input schema of a created tool, in characters of JSON. */
const MAX_SCHEMA_CHARS = 10_000;
/** Names of created tools: like process names, without `__` (server tools are `<server>__<tool>`). */
const NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/** The created tools of a start. */
export class CreatedTools {
  #tools = new Map<string, CreatedTool>();
  /** Names being checked (parallel calls of one turn must not pass the cap or take a name twice). */
  #pending = new Set<string>();
  #timeoutMs: number | undefined;

  constructor(options: { timeoutMs?: number }) {
    this.#timeoutMs = options.timeoutMs;
  }

  /** Tools created or being checked. */
  get size(): number {
    return this.#tools.size + this.#pending.size;
  }

  /** Checks and adds a tool (its code is loaded once in the sandbox); answers the problem when refused. */
  async add(input: CreateToolInput, reserved: ReadonlySet<string>): Promise<string | undefined> {
    const { name, description, code } = input;
    const schema = input.input_schema ?? { type: "object", properties: {} };
    if (typeof name !== "string" || !NAME.test(name) || name.includes("__")) {
      return "`name` must be a letter then up to 63 letters, digits, _ or - (no `__`).";
    }
    if (reserved.has(name) || this.#tools.has(name) || this.#pending.has(name)) {
      return `A tool named ${name} already exists.`;
    }
    if (typeof description !== "string" || description.trim() === "") {
      return "`description` must be non-empty text.";
    }
    if (description.length > MAX_DESCRIPTION_CHARS) {
      return `\`description\` is limited to ${MAX_DESCRIPTION_CHARS} characters.`;
    }
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      return "`input_schema` must be a JSON Schema object.";
    }
    const inputSchema = schema as Record<string, unknown>;
    if (inputSchema.type !== "object") return '`input_schema` must have `"type": "object"`.';
    if (JSON.stringify(inputSchema).length > MAX_SCHEMA_CHARS) {
      return `\`input_schema\` is limited to ${MAX_SCHEMA_CHARS} characters of JSON.`;
    }
    if (typeof code !== "string" || code.trim() === "") return "`code` must be non-empty text.";
    if (code.length > MAX_TOOL_CODE_CHARS) return `\`code\` is limited to ${MAX_TOOL_CODE_CHARS} characters.`;
    this.#pending.add(name);
    try {
      const check = await runSandboxed(code, {}, { checkOnly: true, timeoutMs: this.#timeoutMs });
      if (!check.ok) return `The code was not accepted: ${check.error}`;
      this.#tools.set(name, { name, description, inputSchema, code });
      return undefined;
    } finally {
      this.#pending.delete(name);
    }
  }

  list(): CreatedTool[] {
    return [...this.#tools.values()];
  }

  /** Runs a created tool; undefined when no tool has `name`. */
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome> | undefined {
    const tool = this.#tools.get(name);
    if (!tool) return undefined;
    return runSandboxed(tool.code, args, {
      signal,
      timeoutMs: this.#timeoutMs,
      maxOutputChars: MAX_TOOL_OUTPUT_CHARS,
    })
      .then((outcome) =>
        outcome.ok ? { content: outcome.json, isError: false } : { content: outcome.error, isError: true }
      );
  }

  /** Drops every tool; answers their names. */
  clear(): string[] {
    const names = [...this.#tools.keys()];
    this.#tools.clear();
    return names;
  }
}
