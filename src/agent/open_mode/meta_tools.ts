/**
 * The meta-tools an agent in `execution_mode: "open"` is offered besides its other tools (names without
 * `__`, so they never clash with MCP server tools), each within the `open_mode` limits:
 *
 * - `set_instructions` `{instructions}`: replaces its instructions from the next run on; longer than
 *   `max_instruction_length` is refused.
 * - `add_trigger` `{trigger}`: starts a trigger (a TriggerConfig as in a deploy), listed with
 *   `source: "dynamic"`; checked like `POST /triggers` (the `watch_path` of a file watch must lie in the
 *   data directory), `${...}` references refused, at most `max_dynamic_triggers`. With
 *   `allow_trigger_management`.
 * - `remove_trigger` `{trigger_id}`: stops a trigger it added (configured ones stay). With
 *   `allow_trigger_management`.
 * - `connect_server` `{name, url}`: connects an MCP server whose URL is in `allowed_mcp_urls` (exact match
 *   of `new URL(url).href`, fragment dropped), without any header, token or secret; its tools are offered
 *   as `<name>__<tool>` from the next model turn on. At most {@linkcode MAX_AGENT_SERVERS}. With
 *   `allow_mcp_connect` and a non-empty `allowed_mcp_urls`.
 * - `disconnect_server` `{name}`: closes a server it connected. Offered with `connect_server`.
 * - `create_tool` `{name, description, input_schema?, code}`: a tool whose code runs in the sandbox
 *   (see `tool_sandbox.ts`), offered from the next model turn on. At most `max_custom_tools`. With
 *   `allow_tool_creation`.
 * - `list_capabilities` `{}`: instructions length, tools, triggers, servers and limits.
 * - `rollback` `{}`: undoes every self-change of this start.
 *
 * Memory tools (`remember`, `recall`, `forget`) are the built-in ones, offered in both modes.
 *
 * @module
 */

import type { ToolSpec } from "../../models/mod.ts";
import type { ProcessConfig } from "../../runtime/mod.ts";
import type { ToolOutcome } from "../mcp/mod.ts";
import type { ToolBox } from "../tool_loop.ts";
import { MAX_AGENT_SERVERS, type OpenMode, OpenModeRefusal } from "./open_mode.ts";

/** Names of every meta-tool (those offered depend on `open_mode`). */
export const META_TOOL_NAMES = [
  "set_instructions",
  "add_trigger",
  "remove_trigger",
  "connect_server",
  "disconnect_server",
  "create_tool",
  "list_capabilities",
  "rollback",
] as const;

type MetaToolName = typeof META_TOOL_NAMES[number];

interface MetaTool {
  spec: ToolSpec;
  run(args: Record<string, unknown>): Promise<string>;
}

function object(properties: Record<string, unknown>, required: string[]): Record<string, unknown> {
  return { type: "object", properties, required, additionalProperties: false };
}

interface MetaSources {
  /** What `list_capabilities` answers. */
  capabilities(): Record<string, unknown>;
  /** Names a created tool may not take. */
  reserved(): ReadonlySet<string>;
}

function metaTools(open: OpenMode, sources: MetaSources): Map<MetaToolName, MetaTool> {
  const s = open.settings;
  const tools = new Map<MetaToolName, MetaTool>();
  const add = (
    name: MetaToolName,
    description: string,
    schema: Record<string, unknown>,
    run: MetaTool["run"],
  ) => tools.set(name, { spec: { name, description, inputSchema: schema }, run });
  add(
    "set_instructions",
    `Replace your instructions (at most ${s.max_instruction_length} characters). They apply from your next run.`,
    object({ instructions: { type: "string", minLength: 1, maxLength: s.max_instruction_length } }, [
      "instructions",
    ]),
    async (args) => {
      await open.setInstructions(args.instructions);
      return "Instructions replaced; they apply from your next run.";
    },
  );
  if (s.allow_trigger_management) {
    add(
      "add_trigger",
      `Add a trigger that wakes you (at most ${s.max_dynamic_triggers}): a trigger config like ` +
        '{"type": "webhook", "webhook_path": "/hook", "webhook_port": 9090}, {"type": "cron", ' +
        '"cron_expression": "*/5 * * * *"}, {"type": "event", "event_type": "..."}, {"type": "message", ' +
        '"topic": "..."} or {"type": "file_watch", "watch_path": "..."}. It starts now.',
      object({ trigger: { type: "object", description: "The trigger config." } }, ["trigger"]),
      async (args) => {
        const added = await open.addTrigger(args.trigger);
        return `Trigger ${added.trigger_id} (${added.trigger_type}) added and running.`;
      },
    );
    add(
      "remove_trigger",
      "Remove a trigger you added, by its id.",
      object({ trigger_id: { type: "string", minLength: 1 } }, ["trigger_id"]),
      async (args) => {
        await open.removeTrigger(args.trigger_id);
        return `Trigger ${args.trigger_id} removed.`;
      },
    );
  }
  if (s.allow_mcp_connect && s.allowed_mcp_urls.length > 0) {
    add(
      "connect_server",
      `Connect an MCP server (at most ${MAX_AGENT_SERVERS}); allowed URLs: ${
        s.allowed_mcp_urls.join(", ")
      }. ` +
        "Its tools are offered as <name>__<tool> from your next step.",
      object({ name: { type: "string", minLength: 1 }, url: { type: "string", minLength: 1 } }, [
        "name",
        "url",
      ]),
      async (args) => {
        const { tools } = await open.connectServer(args.name, args.url);
        return `Server ${args.name} connected with ${tools} tools.`;
      },
    );
    add(
      "disconnect_server",
      "Disconnect an MCP server you connected.",
      object({ name: { type: "string", minLength: 1 } }, ["name"]),
      async (args) => {
        await open.disconnectServer(args.name);
        return `Server ${args.name} disconnected.`;
      },
    );
  }
  if (s.allow_tool_creation) {
    add(
      "create_tool",
      `Create a tool (at most ${s.max_custom_tools}). \`code\` is a TypeScript or JavaScript module whose ` +
        "default export takes the arguments object and returns (or resolves to) a JSON value, e.g. " +
        "`export default (args) => ({ sum: args.a + args.b })`. It runs with no file, network, environment " +
        "or program access, for at most a few seconds. Offered from your next step.",
      object({
        name: { type: "string", minLength: 1 },
        description: { type: "string", minLength: 1 },
        input_schema: { type: "object", description: 'JSON Schema of the arguments ("type": "object").' },
        code: { type: "string", minLength: 1 },
      }, ["name", "description", "code"]),
      async (args) => {
        await open.createTool(
          { ...args, name: args.name, description: args.description, code: args.code },
          sources.reserved(),
        );
        return `Tool ${args.name} created.`;
      },
    );
  }
  add(
    "list_capabilities",
    "List your instructions length, tools, triggers, servers and open-mode limits.",
    object({}, []),
    () => Promise.resolve(JSON.stringify(sources.capabilities())),
  );
  add(
    "rollback",
    "Undo every change you made to yourself since this process started.",
    object({}, []),
    async () => {
      const summary = await open.rollback();
      return `Rolled back: ${JSON.stringify(summary)}`;
    },
  );
  return tools;
}

/**
 * `base` (built-in and configured servers' tools) plus the meta-tools, the created tools and the agent's
 * servers' tools. `config` is the run's config (its instructions are the ones `list_capabilities` reports).
 */
export function withOpenMode(base: ToolBox, open: OpenMode, config: ProcessConfig): ToolBox {
  const specs = (): ToolSpec[] => [
    ...base.specs(),
    ...[...tools.values()].map((tool) => tool.spec),
    ...open.createdTools().map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    })),
    ...open.serverTools().map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    })),
  ];
  const capabilities = () => ({
    mode: "open",
    instructions_chars: config.instructions.length,
    instructions_changed: open.instructionsChanged,
    tools: specs().map((spec) => spec.name),
    created_tools: open.createdTools().map((t) => t.name),
    dynamic_triggers: open.dynamicTriggers(),
    configured_servers: Object.keys(config.servers),
    connected_servers: open.servers(),
    limits: open.settings,
  });
  const tools = metaTools(open, {
    capabilities,
    reserved: () => new Set([...base.specs().map((spec) => spec.name), ...META_TOOL_NAMES]),
  });
  return {
    specs,
    async call(name, args, signal): Promise<ToolOutcome> {
      const meta = tools.get(name as MetaToolName);
      if (meta) {
        try {
          return { content: await meta.run(args), isError: false };
        } catch (error) {
          if (error instanceof OpenModeRefusal) return { content: error.message, isError: true };
          if (signal.aborted) throw error;
          open.logFailure(name, error);
          return { content: `${name} failed; nothing was changed.`, isError: true };
        }
      }
      return open.call(name, args, signal) ?? base.call(name, args, signal);
    },
  };
}
