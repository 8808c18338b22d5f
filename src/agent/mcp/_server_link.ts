/**
 * One configured MCP server: its current session and tools, reconnects with backoff and calls. What
 * it watches on the session (list changes, the listen stream, drops) is in `_link_watch.ts`; one
 * call's failure handling in `_link_call.ts`.
 *
 * @module
 */

import type { ServerConfig } from "../../runtime/mod.ts";
import { serverTransport } from "../../runtime/mod.ts";
import type { Logger } from "../../log.ts";
import { describeError } from "../../_util/errors.ts";
import { callOnSession } from "./_link_call.ts";
import { type LinkSettings, type LinkStatus, ListingFailed } from "./_link_parts.ts";
import { LinkWatch } from "./_link_watch.ts";
import { openSession, type Session } from "./_session.ts";
import { listAll, type ListedTool } from "./_session_watch.ts";
import type { ToolOutcome } from "./tool_outcome.ts";

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
  #protocolVersion: string | null = null;
  #up = false;
  #closing = false;
  #reconnects = 0;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pending: Promise<unknown> = Promise.resolve();
  #retiring = new Set<Promise<void>>();
  #stop = new AbortController();
  #watch: LinkWatch;

  /** A link for `config`, not yet connected. */
  constructor(name: string, config: ServerConfig, settings: LinkSettings) {
    this.name = name;
    this.#config = config;
    this.#settings = settings;
    this.#log = settings.logger;
    const configured = serverTransport(config);
    this.#transport = configured === "http" ? "streamable-http" : configured;
    this.#watch = new LinkWatch({
      name,
      settings,
      stop: this.#stop.signal,
      current: (client) => this.#session?.client === client && this.#up && !this.#closing,
      dropped: (cause) => this.#dropped(cause),
      replaceTools: (tools) => {
        this.#tools = tools;
        settings.toolsReplaced();
      },
    });
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

  /** `{ connected, tools, transport, protocol_version, reconnects }`. */
  get status(): LinkStatus {
    return {
      connected: this.#up,
      tools: this.#tools.length,
      transport: this.#transport,
      protocol_version: this.#protocolVersion,
      reconnects: this.#reconnects,
    };
  }

  async #open(): Promise<void> {
    const session = await openSession(this.#config, {
      logger: this.#log,
      timeoutMs: this.#settings.connectTimeoutMs,
      clientInfo: this.#settings.clientInfo,
      signal: this.#stop.signal,
      prepare: (client) => this.#watch.prepare(client),
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
    this.#protocolVersion = session.protocolVersion;
    this.#tools = tools;
    this.#up = true;
    this.#log.info("MCP server connected", {
      server: this.name,
      transport: session.transport,
      protocol_version: session.protocolVersion,
      tools: tools.length,
    });
    if (changed) this.#settings.toolsReplaced();
    if (session.era === "modern") this.#watch.listen(session);
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
    const answer = await callOnSession(session, { tool, args }, {
      server: this.name,
      timeoutMs: this.#settings.callTimeoutMs,
      signal,
    });
    if ("outcome" in answer) return answer.outcome;
    if (this.#session === session) this.#dropped(answer.lost);
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
    await Promise.all([...this.#retiring, this.#watch.settled()]);
  }
}
