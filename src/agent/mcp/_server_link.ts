/**
 * One configured MCP server: its current session and tools, drop detection, reconnects with backoff,
 * `tools/list_changed` refreshes and calls.
 *
 * @module
 */

import type { Client } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../../runtime/mod.ts";
import { serverTransport } from "../../runtime/mod.ts";
import type { Logger } from "../../log.ts";
import { describeError } from "../../_util/errors.ts";
import { openSession, type Session } from "./_session.ts";
import { type ToolOutcome, toolOutcome } from "./tool_outcome.ts";
import {
  callFailure,
  listAll,
  type ListedTool,
  listenForToolChanges,
  pause,
  probeServer,
} from "./_session_watch.ts";

/** One server's state (see `McpServerStatus`). */
export interface LinkStatus {
  connected: boolean;
  tools: number;
  transport: string;
  protocol_version: string | null;
  reconnects: number;
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

const PROBE_MS = 5_000;

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
  #listening = new Set<Promise<void>>();
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
    if (session.era === "modern") this.#listen(session);
  }

  /**
   * On 2026-07-28 list changes come on a `subscriptions/listen` stream. When it ends (not by us), the
   * server is asked whether it is there: no answer is a drop; an answer opens the stream again, after
   * a delay that doubles while streams keep ending early.
   */
  #listen(session: Session, earlyEnds = 0): void {
    const current = () => this.#session === session && this.#up && !this.#closing;
    const opened = Date.now();
    const listening = listenForToolChanges(session.client, this.#settings.callTimeoutMs).then(
      async (listened) => {
        const cause = await listened?.ended;
        if (cause === undefined || cause === "local" || !current()) return;
        this.#log.debug("MCP listen stream ended; checking the server", { server: this.name, cause });
        try {
          await probeServer(session.client, Math.min(PROBE_MS, this.#settings.callTimeoutMs));
        } catch (failure) {
          if (current()) this.#dropped(failure);
          return;
        }
        const early = Date.now() - opened < this.#settings.maxDelayMs ? earlyEnds + 1 : 0;
        await pause(
          Math.min(this.#settings.baseDelayMs * 2 ** early, this.#settings.maxDelayMs),
          this.#stop.signal,
        );
        if (current()) this.#listen(session, early);
      },
      (error) => {
        this.#log.debug("MCP listen stream refused; tool list changes will not be seen", {
          server: this.name,
          error: describeError(error),
        });
      },
    );
    this.#listening.add(listening);
    listening.finally(() => this.#listening.delete(listening));
  }

  #prepare(client: Client): void {
    const current = () => this.#session?.client === client && this.#up && !this.#closing;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
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
      if (current()) this.#check(client, error);
    };
  }

  /** Something went wrong on the transport: asks the server (ping, or `server/discover` on 2026-07-28). */
  #check(client: Client, error: unknown): void {
    if (this.#probing) return;
    const current = () => this.#session?.client === client && this.#up && !this.#closing;
    this.#log.debug("MCP transport error; checking the server", {
      server: this.name,
      error: describeError(error),
    });
    this.#probing = true;
    probeServer(client, Math.min(PROBE_MS, this.#settings.callTimeoutMs)).then(
      () => this.#probing = false,
      (failure) => {
        this.#probing = false;
        if (current()) this.#dropped(failure);
      },
    );
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
      const result = await session.client.callTool({ name: tool, arguments: args }, {
        signal: own.signal,
        timeout: this.#settings.callTimeoutMs,
      });
      return toolOutcome(result);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const outcome = callFailure(error, {
        server: this.name,
        tool,
        timeoutMs: this.#settings.callTimeoutMs,
      });
      if (outcome !== undefined) return outcome;
      if (this.#session === session) this.#dropped(error);
      return { isError: true, content: `server ${this.name} is reconnecting` };
    } finally {
      signal?.removeEventListener("abort", forward);
    }
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
    await Promise.all([...this.#retiring, ...this.#listening]);
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
