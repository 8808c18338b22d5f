/**
 * {@linkcode OpenMode}: what an agent in `execution_mode: "open"` changed about itself during one start of
 * its process (instructions, triggers, MCP servers, tools), the checks on each change, the `self_change`
 * journal entries, and the rollback to the deployed config. Self-changes last for the current start: a
 * stop (restart, runtime restart) ends them like a rollback does. The meta-tools the model calls are in
 * `meta_tools.ts`.
 *
 * @module
 */

import type { AgentProcess, OpenModeConfig, PartContext, ProcessPart } from "../../runtime/mod.ts";
import { TriggersPart } from "../../triggers/mod.ts";
import { describeError } from "../../_util/errors.ts";
import type { AgentTool, ToolOutcome } from "../mcp/mod.ts";
import { AgentServers, McpConnectError, normaliseMcpUrl } from "./_agent_servers.ts";
import { type CreatedTool, CreatedTools, type CreateToolInput } from "./_created_tools.ts";
import { checkAgentTrigger } from "./_trigger_check.ts";
import { OpenModeRefusal } from "./open_mode_refusal.ts";

export { OpenModeRefusal };

/** Name of the triggers part (`TriggersPart.name`). */
const TRIGGERS_PART = "triggers";

/** Most MCP servers an agent may connect at once. */
export const MAX_AGENT_SERVERS = 10;

/** Journal entry type of every self-change: `{kind, detail}`. */
export const SELF_CHANGE_ENTRY = "self_change";

/** What a rollback undid. */
export interface RollbackSummary {
  /** Whether the instructions went back to those before the agent's first change. */
  instructions_restored: boolean;
  /** Ids of the triggers the agent had added, now stopped. */
  triggers_removed: string[];
  /** Names of the servers the agent had connected, now closed. */
  servers_disconnected: string[];
  /** Names of the tools the agent had created, now gone. */
  tools_dropped: string[];
}

/** What {@linkcode OpenMode} needs of its process. */
export type OpenModeContext = Pick<
  PartContext,
  "name" | "config" | "journal" | "logger" | "dataDir" | "part" | "instructions" | "setInstructions"
>;

/** Options of {@linkcode OpenMode}. */
export interface OpenModeOptions {
  /** Bounds of agent-connected MCP servers. */
  mcp?: { connectTimeoutMs?: number; callTimeoutMs?: number };
  /** Time limit of one created-tool call, in ms. @default 5000 */
  toolTimeoutMs?: number;
}

const PARTS = new WeakMap<ProcessPart, OpenMode>();

/** Marks `part` (the agent part of a start) as holding `openMode`, for {@linkcode openModeOf}. */
export function attachOpenMode(part: ProcessPart, openMode: OpenMode): void {
  PARTS.set(part, openMode);
}

/** The open-mode state of a started open-mode process; undefined otherwise. */
export function openModeOf(process: AgentProcess): OpenMode | undefined {
  const part = process.part("agent");
  return part ? PARTS.get(part) : undefined;
}

/** One start's self-changes of an open-mode agent. */
export class OpenMode {
  #ctx: OpenModeContext;
  #base: string | undefined;
  #mine: string | undefined;
  #servers: AgentServers;
  #tools: CreatedTools;
  /** Triggers and server names being added (the calls of one model turn run in parallel). */
  #addingTriggers = 0;
  #addingServers = new Set<string>();

  /** The open-mode state of a start; `ctx.config.open_mode` holds the limits. */
  constructor(ctx: OpenModeContext, options: OpenModeOptions = {}) {
    this.#ctx = ctx;
    this.#servers = new AgentServers({
      logger: ctx.logger.child("open_mode"),
      connectTimeoutMs: options.mcp?.connectTimeoutMs,
      callTimeoutMs: options.mcp?.callTimeoutMs,
      clientInfo: { name: `agentry-${ctx.name}`, version: "1" },
    });
    this.#tools = new CreatedTools({ timeoutMs: options.toolTimeoutMs });
  }

  /** The limits (`open_mode` of the config). */
  get settings(): OpenModeConfig {
    return this.#ctx.config.open_mode;
  }

  async #journal(kind: string, detail: Record<string, unknown>): Promise<void> {
    this.#ctx.logger.info("open mode self-change", { process: this.#ctx.name, kind });
    await this.#ctx.journal?.record(SELF_CHANGE_ENTRY, { kind, detail });
  }

  /** Logs a meta-tool that failed for a reason other than a refusal. */
  logFailure(tool: string, error: unknown): void {
    this.#ctx.logger.warning("open mode meta-tool failed", {
      process: this.#ctx.name,
      tool,
      error: describeError(error),
    });
  }

  /** Replaces the instructions from the next run on (live only: never stored). */
  async setInstructions(instructions: unknown): Promise<void> {
    const max = this.settings.max_instruction_length;
    if (typeof instructions !== "string" || instructions.trim() === "") {
      throw new OpenModeRefusal("`instructions` must be non-empty text.");
    }
    if (instructions.length > max) {
      throw new OpenModeRefusal(
        `Instructions are limited to ${max} characters; these have ${instructions.length}. Nothing changed.`,
      );
    }
    this.#base ??= this.#ctx.instructions();
    this.#ctx.setInstructions(instructions);
    this.#mine = instructions;
    await this.#journal("set_instructions", { chars: instructions.length, instructions });
  }

  #triggers(): TriggersPart {
    const part = this.#ctx.part(TRIGGERS_PART);
    if (part instanceof TriggersPart) return part;
    throw new OpenModeRefusal("This runtime runs no triggers.");
  }

  /** Ids and types of the triggers the agent added (running now). */
  dynamicTriggers(): Array<{ id: string; type: string }> {
    const part = this.#ctx.part(TRIGGERS_PART);
    if (!(part instanceof TriggersPart)) return [];
    return part.running().filter((r) => r.source === "dynamic").map((r) => ({ id: r.id, type: r.type }));
  }

  /** Starts a trigger (checked like POST triggers, `${...}` refused); answers its id. */
  async addTrigger(raw: unknown): Promise<{ trigger_id: string; trigger_type: string }> {
    const part = this.#triggers();
    const max = this.settings.max_dynamic_triggers;
    if (this.dynamicTriggers().length + this.#addingTriggers >= max) {
      throw new OpenModeRefusal(`You may add at most ${max} triggers; remove one first.`);
    }
    this.#addingTriggers++;
    try {
      const config = await checkAgentTrigger(raw, this.#ctx.dataDir);
      const triggerId = `dynamic-${config.type.replace("_", "-")}-${crypto.randomUUID().slice(0, 8)}`;
      try {
        await part.add(config, { triggerId, source: "dynamic" });
      } catch (error) {
        this.#ctx.logger.warning("agent trigger could not be started", {
          process: this.#ctx.name,
          error: describeError(error),
        });
        throw new OpenModeRefusal("The trigger is valid but could not be started.");
      }
      await this.#journal("add_trigger", { trigger_id: triggerId, trigger_type: config.type });
      return { trigger_id: triggerId, trigger_type: config.type };
    } finally {
      this.#addingTriggers--;
    }
  }

  /** Stops a trigger the agent added. */
  async removeTrigger(triggerId: unknown): Promise<void> {
    const id = typeof triggerId === "string" ? triggerId : "";
    if (!this.dynamicTriggers().some((t) => t.id === id)) {
      throw new OpenModeRefusal(`No trigger ${JSON.stringify(id)} that you added (configured ones stay).`);
    }
    await this.#triggers().remove(id);
    await this.#journal("remove_trigger", { trigger_id: id });
  }

  /** Connects an MCP server whose URL is in `allowed_mcp_urls`, without any credential. */
  async connectServer(name: unknown, url: unknown): Promise<{ tools: number }> {
    if (typeof name !== "string" || !/^[a-zA-Z][a-zA-Z0-9-]{0,31}(_[a-zA-Z0-9-]+)*$/.test(name)) {
      throw new OpenModeRefusal("`name` must be a letter then up to 31 letters, digits, - or single _.");
    }
    if (name in this.#ctx.config.servers || this.#servers.has(name) || this.#addingServers.has(name)) {
      throw new OpenModeRefusal(`A server named ${name} is already connected.`);
    }
    if (this.#servers.size + this.#addingServers.size >= MAX_AGENT_SERVERS) {
      throw new OpenModeRefusal(
        `You may connect at most ${MAX_AGENT_SERVERS} servers; disconnect one first.`,
      );
    }
    const normal = typeof url === "string" ? normaliseMcpUrl(url) : undefined;
    if (!normal) throw new OpenModeRefusal("`url` must be an http(s) URL.");
    const allowed = this.settings.allowed_mcp_urls.map(normaliseMcpUrl);
    if (!allowed.includes(normal)) {
      throw new OpenModeRefusal(
        allowed.length === 0
          ? "No MCP server URL is allowed (open_mode.allowed_mcp_urls is empty)."
          : `${normal} is not an allowed MCP server URL.`,
      );
    }
    let tools: number;
    this.#addingServers.add(name);
    try {
      tools = await this.#servers.add(name, normal);
    } catch (error) {
      if (error instanceof McpConnectError) throw new OpenModeRefusal(`${error.message}.`);
      throw error;
    } finally {
      this.#addingServers.delete(name);
    }
    await this.#journal("connect_server", { name, url: normal, tools });
    return { tools };
  }

  /** Closes a server the agent connected. */
  async disconnectServer(name: unknown): Promise<void> {
    const key = typeof name === "string" ? name : "";
    if (!(await this.#servers.remove(key))) {
      throw new OpenModeRefusal(
        `No server ${JSON.stringify(key)} that you connected (configured ones stay).`,
      );
    }
    await this.#journal("disconnect_server", { name: key });
  }

  /** Creates a tool whose code runs in the sandbox. */
  async createTool(input: CreateToolInput, reserved: ReadonlySet<string>): Promise<void> {
    const max = this.settings.max_custom_tools;
    if (this.#tools.size >= max) throw new OpenModeRefusal(`You may create at most ${max} tools.`);
    const problem = await this.#tools.add(input, reserved);
    if (problem) throw new OpenModeRefusal(problem);
    await this.#journal("create_tool", {
      name: input.name,
      description: input.description,
      code_chars: String(input.code).length,
    });
  }

  /** Tools of the agent's servers. */
  serverTools(): AgentTool[] {
    return this.#servers.tools();
  }

  /** Tools the agent created. */
  createdTools(): CreatedTool[] {
    return this.#tools.list();
  }

  /** Calls a created tool or an agent server's tool; undefined when neither has `name`. */
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome> | undefined {
    return this.#tools.call(name, args, signal) ?? this.#servers.call(name, args, signal);
  }

  /** The servers the agent connected. */
  servers(): Array<{ name: string; url: string; tools: number; connected: boolean }> {
    return this.#servers.list();
  }

  /** Whether the instructions are the agent's own. */
  get instructionsChanged(): boolean {
    return this.#base !== undefined;
  }

  async #undo(): Promise<RollbackSummary> {
    let instructions_restored = false;
    if (this.#base !== undefined) {
      // An operator's newer instructions (PATCH) stay.
      if (this.#ctx.instructions() === this.#mine) this.#ctx.setInstructions(this.#base);
      this.#base = this.#mine = undefined;
      instructions_restored = true;
    }
    const triggers_removed: string[] = [];
    const part = this.#ctx.part(TRIGGERS_PART);
    for (const { id } of this.dynamicTriggers()) {
      if (part instanceof TriggersPart && await part.remove(id)) triggers_removed.push(id);
    }
    const servers_disconnected = await this.#servers.clear();
    const tools_dropped = this.#tools.clear();
    return { instructions_restored, triggers_removed, servers_disconnected, tools_dropped };
  }

  /** Undoes every self-change of this start (journaled as kind `rollback`). */
  async rollback(): Promise<RollbackSummary> {
    const summary = await this.#undo();
    await this.#journal("rollback", { ...summary });
    return summary;
  }

  /** Ends the start: closes the agent's servers and puts the instructions back (not journaled). */
  async close(): Promise<void> {
    await this.#undo();
    await this.#servers.close();
  }
}
