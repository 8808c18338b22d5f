/**
 * One configured MCP server: its current session and tools, drop detection, reconnects with backoff,
 * `tools/list_changed` refreshes and calls.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ServerConfig } from "../../runtime/mod.ts";
import { serverTransport } from "../../runtime/mod.ts";
import type { Logger } from "../../log.ts";
import { describeError } from "../../_util/errors.ts";
import { openSession, type Session } from "./_session.ts";
import { type ToolOutcome, toolOutcome, truncateText } from "./tool_outcome.ts";

/** A tool as its server lists it. */
export interface ListedTool {
  /** The server's own name for it. */
  name: string;
  /** Description, "" when the server gave none. */
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: Record<string, unknown>;
}

/** Settings of a {@linkcode ServerLink}, defaults filled. */
export interface LinkSettings {
  logger: Logger;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  clientInfo: { name: string; version: string };
  /** Called after this server's tool list was replaced. */
  toolsReplaced(): void;
}

const MAX_PAGES = 100;
const PROBE_MS = 5_000;

async function listAll(client: Client, timeoutMs: number): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs });
    for (const tool of answer.tools) {
      tools.push({
        name: tool.name,
        description: tool.description ?? tool.title ?? "",
        inputSchema: tool.inputSchema as Record<string, unknown>,
      });
    }
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/** One server's connection, kept up for the lifetime of the {@linkcode McpConnections} holding it. */
export class ServerLink {
  /** Server name. */
  readonly name: string;
  #config: ServerConfig;
  #settings: LinkSettings;
  #log: Logger;
  #session: Session | undefined;
  #tools: ListedTool[] = [];
  #transport: string;
  #up = false;
  #closing = false;
  #probing = false;
  #reconnects = 0;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pending: Promise<unknown> = Promise.resolve();
  #refreshing: Promise<void> = Promise.resolve();
  #retiring = new Set<Promise<void>>();
  #stop = new AbortController();

  /** A link for `config`, not yet connected. */
  constructor(name: string, config: ServerConfig, settings: LinkSettings) {
    this.name = name;
    this.#config = config;
    this.#settings = settings;
    this.#log = settings.logger;
    const configured = serverTransport(config);
    this.#transport = configured === "http" ? "streamable-http" : configured;
  }

  /** Connects and lists the tools; rejects (nothing left open) when either fails. */
  async start(): Promise<void> {
    const attempt = this.#open();
    this.#pending = attempt.catch(() => {});
    await attempt;
  }

  /** The server's current tools (kept while it reconnects). */
  get tools(): readonly ListedTool[] {
    return this.#tools;
  }

  /** `{ connected, tools, transport, reconnects }`. */
  get status(): { connected: boolean; tools: number; transport: string; reconnects: number } {
    return {
      connected: this.#up,
      tools: this.#tools.length,
      transport: this.#transport,
      reconnects: this.#reconnects,
    };
  }

  async #open(): Promise<void> {
    const session = await openSession(this.#config, {
      logger: this.#log,
      timeoutMs: this.#settings.connectTimeoutMs,
      clientInfo: this.#settings.clientInfo,
      signal: this.#stop.signal,
      prepare: (client) => this.#prepare(client),
    });
    let tools: ListedTool[];
    try {
      tools = await listAll(session.client, this.#settings.connectTimeoutMs);
    } catch (error) {
      await session.close();
      throw new ListingFailed(error);
    }
    if (this.#closing) {
      await session.close();
      throw new Error("closed while connecting");
    }
    const changed = JSON.stringify(tools) !== JSON.stringify(this.#tools);
    this.#session = session;
    this.#transport = session.transport;
    this.#tools = tools;
    this.#up = true;
    if (changed) this.#settings.toolsReplaced();
  }

  #prepare(client: Client): void {
    const current = () => this.#session?.client === client && this.#up && !this.#closing;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#refreshing = this.#refreshing.then(async () => {
        if (!current()) return;
        try {
          this.#tools = await listAll(client, this.#settings.callTimeoutMs);
          this.#settings.toolsReplaced();
        } catch (error) {
          // The old list stays; a broken transport is noticed through onerror/onclose.
          this.#log.warning("MCP tool list refresh failed", {
            server: this.name,
            error: describeError(error),
          });
        }
      });
    });
    client.onclose = () => {
      if (current()) this.#dropped(new Error("the connection closed"));
    };
    client.onerror = (error) => {
      if (!current() || this.#probing) return;
      this.#log.debug("MCP transport error; checking the server", {
        server: this.name,
        error: describeError(error),
      });
      this.#probing = true;
      client.ping({ timeout: Math.min(PROBE_MS, this.#settings.callTimeoutMs) }).then(
        () => this.#probing = false,
        (failure) => {
          this.#probing = false;
          if (current()) this.#dropped(failure);
        },
      );
    };
  }

  #dropped(cause: unknown): void {
    if (!this.#up || this.#closing) return;
    this.#up = false;
    const session = this.#session;
    this.#session = undefined;
    this.#log.warning("MCP server dropped; reconnecting", { server: this.name, error: describeError(cause) });
    if (session !== undefined) this.#retire(session);
    this.#schedule();
  }

  /** Closes a session no longer in use; {@linkcode close} waits for it. */
  #retire(session: Session): void {
    const closing = session.close().finally(() => this.#retiring.delete(closing));
    this.#retiring.add(closing);
  }

  #schedule(): void {
    const delay = Math.min(this.#settings.baseDelayMs * 2 ** this.#attempt, this.#settings.maxDelayMs);
    this.#attempt = Math.min(this.#attempt + 1, 30);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const attempt = this.#open().then(() => {
        this.#attempt = 0;
        this.#reconnects += 1;
        this.#log.info("MCP server reconnected", { server: this.name, tools: this.#tools.length });
      }, (error) => {
        if (this.#closing) return;
        this.#log.debug("MCP reconnect failed", { server: this.name, error: describeError(error) });
        this.#schedule();
      });
      this.#pending = attempt;
    }, delay);
  }

  /** Calls `tool`; failures become an error outcome. Rejects only when `signal` aborts. */
  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome> {
    signal?.throwIfAborted();
    const session = this.#session;
    if (this.#closing) return { isError: true, content: "the MCP connections are closed" };
    if (!this.#up || session === undefined) {
      return { isError: true, content: `server ${this.name} is reconnecting` };
    }
    // The SDK never removes the abort listener it adds to the signal it is given: give it a signal of
    // this call only, so the caller's (often a run's, with a timeout) is not kept alive by it.
    const own = new AbortController();
    const forward = () => own.abort(signal?.reason);
    signal?.addEventListener("abort", forward, { once: true });
    try {
      const result = await session.client.callTool({ name: tool, arguments: args }, undefined, {
        signal: own.signal,
        timeout: this.#settings.callTimeoutMs,
      });
      return toolOutcome(result);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      return this.#failure(session, tool, error);
    } finally {
      signal?.removeEventListener("abort", forward);
    }
  }

  #failure(session: Session, tool: string, error: unknown): ToolOutcome {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return {
        isError: true,
        content:
          `tool ${tool} on server ${this.name} did not answer within ${this.#settings.callTimeoutMs} ms`,
      };
    }
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
      return {
        isError: true,
        content: truncateText(`server ${this.name} refused the call: ${error.message}`, 1_000),
      };
    }
    if (this.#session === session) this.#dropped(error);
    return { isError: true, content: `server ${this.name} is reconnecting` };
  }

  /** Closes the session and cancels reconnects. */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    this.#up = false;
    clearTimeout(this.#timer);
    this.#stop.abort(new Error("closed while connecting"));
    const session = this.#session;
    this.#session = undefined;
    await session?.close();
    await this.#pending.catch(() => {});
    await this.#refreshing;
    await Promise.all(this.#retiring);
  }
}

/** Listing the tools failed after the connect succeeded. */
export class ListingFailed extends Error {
  /** Wraps the listing's failure. */
  constructor(cause: unknown) {
    super("listing the tools failed", { cause });
    this.name = "ListingFailed";
  }
}
