/**
 * {@linkcode McpConnections}: the MCP servers of one process, connected, with their tools offered to the
 * model under stable names and called for the agent's tool loop.
 *
 * @module
 */

import type { ServerConfig } from "../../runtime/mod.ts";
import type { Logger } from "../../log.ts";
import { describeError } from "../../_util/errors.ts";
import { connectFailureReason, McpConnectError } from "./mcp_connect_error.ts";
import { ServerLink } from "./_server_link.ts";
import { assignToolNames } from "./tool_names.ts";
import type { ToolOutcome } from "./tool_outcome.ts";

/** A tool offered to the model. */
export interface AgentTool {
  /** The stable name offered to the model (see `toolName`). */
  name: string;
  /** The server's description of the tool ("" when it gave none). */
  description: string;
  /** JSON Schema of the arguments, as the server lists it. */
  inputSchema: Record<string, unknown>;
  /** Server name (its key in `servers`). */
  server: string;
  /** The server's own name for the tool. */
  tool: string;
}

/** Options for {@linkcode McpConnections.connect}. */
export interface McpConnectionsOptions {
  /** Where connection events go (server names and causes; never header values). */
  logger: Logger;
  /** Aborting cancels the connect (it rejects with the reason) or, later, closes every connection. */
  signal?: AbortSignal;
  /** Bound on connecting one server and listing its tools, in ms. @default 10000 */
  connectTimeoutMs?: number;
  /** Bound on one tool call (and on a tool-list refresh), in ms. @default 60000 */
  callTimeoutMs?: number;
  /** Backoff between reconnect attempts of a dropped server: doubling from `baseDelayMs` up to `maxDelayMs`. */
  reconnect?: {
    /** First delay, in ms. @default 500 */
    baseDelayMs?: number;
    /** Largest delay, in ms. @default 30000 */
    maxDelayMs?: number;
  };
  /** Called after a server's tool list was refreshed (`tools/list_changed`, or a reconnect that changed it). */
  onToolsChanged?: () => void;
  /** Sent to servers as `clientInfo`. @default { name: "agentry", version: "0" } */
  clientInfo?: { name: string; version: string };
}

/** One server's state, as {@linkcode McpConnections.status} reports it. */
export interface McpServerStatus {
  /** Whether the server is connected now (false while reconnecting). */
  connected: boolean;
  /** Number of tools listed. */
  tools: number;
  /** Transport in use: `streamable-http`, `sse` (configured, or the fallback) or `stdio`. */
  transport: string;
  /**
   * The MCP revision negotiated with the server: `2026-07-28` (stateless, found through
   * `server/discover`) or a 2025-era `initialize` revision such as `2025-11-25`; `null` before the
   * first connect.
   */
  protocol_version: string | null;
  /** Successful reconnects since connect. */
  reconnects: number;
}

/** Options of {@linkcode McpConnections.call}. */
export interface McpCallOptions {
  /** Aborting cancels the call (the server is sent `notifications/cancelled`) and rejects it. */
  signal?: AbortSignal;
}

/** The connected MCP servers of a process. Create with {@linkcode McpConnections.connect}. */
export class McpConnections {
  #links: ServerLink[];
  #tools: AgentTool[] = [];
  #byName = new Map<string, { link: ServerLink; tool: string }>();
  #closed: Promise<void> | undefined;
  #onAbort: (() => void) | undefined;
  #signal: AbortSignal | undefined;

  private constructor(links: ServerLink[]) {
    this.#links = links;
  }

  /**
   * Connects every server and lists its tools, in parallel. When any fails, closes what was opened and
   * rejects with {@linkcode McpConnectError} (the first failing server in name order).
   */
  static async connect(
    servers: Record<string, ServerConfig>,
    options: McpConnectionsOptions,
  ): Promise<McpConnections> {
    options.signal?.throwIfAborted();
    let ready = false;
    const connections: McpConnections = new McpConnections([]);
    const settings = {
      logger: options.logger,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      callTimeoutMs: options.callTimeoutMs ?? 60_000,
      baseDelayMs: options.reconnect?.baseDelayMs ?? 500,
      maxDelayMs: options.reconnect?.maxDelayMs ?? 30_000,
      clientInfo: options.clientInfo ?? { name: "agentry", version: "0" },
      toolsReplaced: () => {
        connections.#rebuild();
        if (ready) options.onToolsChanged?.();
      },
    };
    const names = Object.keys(servers).sort();
    connections.#links = names.map((name) => new ServerLink(name, servers[name], settings));
    const aborted = new Promise<never>((_, reject) => {
      options.signal?.addEventListener("abort", () => reject(options.signal!.reason), { once: true });
    });
    aborted.catch(() => {});
    const started = Promise.allSettled(connections.#links.map((link) => link.start()));
    let outcomes: PromiseSettledResult<void>[];
    try {
      outcomes = await Promise.race([started, aborted]);
    } catch (reason) {
      await connections.close();
      await started;
      throw reason;
    }
    const failed = outcomes.findIndex((outcome) => outcome.status === "rejected");
    if (failed >= 0) {
      await connections.close();
      const cause = (outcomes[failed] as PromiseRejectedResult).reason;
      options.logger.warning("MCP server could not be connected", {
        server: names[failed],
        error: describeError(cause),
      });
      throw new McpConnectError(names[failed], connectFailureReason(cause), { cause });
    }
    ready = true;
    connections.#rebuild();
    if (options.signal !== undefined) {
      connections.#signal = options.signal;
      connections.#onAbort = () => void connections.close();
      options.signal.addEventListener("abort", connections.#onAbort, { once: true });
    }
    return connections;
  }

  #rebuild(): void {
    const refs = this.#links.flatMap((link) => link.tools.map((tool) => ({ link, tool })));
    refs.sort((a, b) =>
      a.link.name !== b.link.name
        ? (a.link.name < b.link.name ? -1 : 1)
        : (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0)
    );
    const names = assignToolNames(refs.map((ref) => ({ server: ref.link.name, tool: ref.tool.name })));
    this.#byName = new Map(refs.map((ref, i) => [names[i], { link: ref.link, tool: ref.tool.name }]));
    this.#tools = refs.map((ref, i) => ({
      name: names[i],
      description: ref.tool.description,
      inputSchema: ref.tool.inputSchema,
      server: ref.link.name,
      tool: ref.tool.name,
    }));
  }

  /** Current tools of every server, ordered by server name then tool name. */
  tools(): AgentTool[] {
    return [...this.#tools];
  }

  /**
   * Calls the tool offered as `name`. Never rejects for tool or server failures: an unknown tool, a
   * server down or reconnecting, a timeout, a protocol error or an `isError` result all resolve with
   * `isError: true` and a short explanation. Rejects only when `options.signal` aborts.
   */
  async call(
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions = {},
  ): Promise<ToolOutcome> {
    options.signal?.throwIfAborted();
    const entry = this.#byName.get(name);
    if (entry === undefined) {
      return { isError: true, content: `unknown tool ${JSON.stringify(name.slice(0, 100))}` };
    }
    return await entry.link.call(entry.tool, args, options.signal);
  }

  /** Each server's state, by server name. */
  status(): Record<string, McpServerStatus> {
    return Object.fromEntries(this.#links.map((link) => [link.name, link.status]));
  }

  /** Closes every client and cancels pending reconnects. Idempotent. */
  close(): Promise<void> {
    if (this.#onAbort !== undefined) this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#closed ??= Promise.all(this.#links.map((link) => link.close())).then(() => {});
    return this.#closed;
  }

  /** Same as {@linkcode close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

export { McpConnectError };
