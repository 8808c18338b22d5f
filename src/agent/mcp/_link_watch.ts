/**
 * How a `ServerLink` notices what happens to its session: `tools/list_changed` refreshes, the
 * 2026-07-28 `subscriptions/listen` stream, transport errors and closes (each checked by asking the
 * server before the session counts as dropped).
 *
 * @module
 */

import type { Client } from "@modelcontextprotocol/client";
import type { Logger } from "../../log.ts";
import { describeError } from "../../_util/errors.ts";
import type { Session } from "./_session.ts";
import { listAll, type ListedTool, listenForToolChanges, pause, probeServer } from "./_session_watch.ts";
import { type LinkSettings, PROBE_MS } from "./_link_parts.ts";

/** What the link tells its watch and the watch tells the link. */
export interface LinkWatchHooks {
  /** The server's name, for log entries. */
  name: string;
  /** The link's settings. */
  settings: LinkSettings;
  /** Aborts when the link closes. */
  stop: AbortSignal;
  /** Whether `client` is the link's current, connected session's client (and the link is not closing). */
  current(client: Client): boolean;
  /** The current session is gone (the link reconnects). */
  dropped(cause: unknown): void;
  /** The server's tool list was listed again. */
  replaceTools(tools: ListedTool[]): void;
}

/** Watches the sessions of one link. */
export class LinkWatch {
  #hooks: LinkWatchHooks;
  #log: Logger;
  #listening = new Set<Promise<void>>();
  #probing = false;
  #refreshing: Promise<void> = Promise.resolve();

  /** A watch reporting to `hooks`. */
  constructor(hooks: LinkWatchHooks) {
    this.#hooks = hooks;
    this.#log = hooks.settings.logger;
  }

  /** Settles once the refreshes and listen streams started so far have ended. */
  async settled(): Promise<void> {
    await this.#refreshing;
    await Promise.all([...this.#listening]);
  }

  /** Installs the handlers of a new session's `client` (before it connects). */
  prepare(client: Client): void {
    const { name, settings } = this.#hooks;
    const current = () => this.#hooks.current(client);
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      this.#refreshing = this.#refreshing.then(async () => {
        if (!current()) return;
        try {
          this.#hooks.replaceTools(await listAll(client, settings.callTimeoutMs));
        } catch (error) {
          // The old list stays; a broken transport is noticed through onerror/onclose.
          this.#log.warning("MCP tool list refresh failed", { server: name, error: describeError(error) });
        }
      });
    });
    client.onclose = () => {
      if (current()) this.#hooks.dropped(new Error("the connection closed"));
    };
    client.onerror = (error) => {
      if (current()) this.#check(client, error);
    };
  }

  /**
   * On 2026-07-28 list changes come on a `subscriptions/listen` stream. When it ends (not by us), the
   * server is asked whether it is there: no answer is a drop; an answer opens the stream again, after
   * a delay that doubles while streams keep ending early.
   */
  listen(session: Session, earlyEnds = 0): void {
    const { name, settings, stop } = this.#hooks;
    const current = () => this.#hooks.current(session.client);
    const opened = Date.now();
    const listening = listenForToolChanges(session.client, settings.callTimeoutMs).then(
      async (listened) => {
        const cause = await listened?.ended;
        if (cause === undefined || cause === "local" || !current()) return;
        this.#log.debug("MCP listen stream ended; checking the server", { server: name, cause });
        try {
          await probeServer(session.client, Math.min(PROBE_MS, settings.callTimeoutMs));
        } catch (failure) {
          if (current()) this.#hooks.dropped(failure);
          return;
        }
        const early = Date.now() - opened < settings.maxDelayMs ? earlyEnds + 1 : 0;
        await pause(Math.min(settings.baseDelayMs * 2 ** early, settings.maxDelayMs), stop);
        if (current()) this.listen(session, early);
      },
      (error) => {
        this.#log.debug("MCP listen stream refused; tool list changes will not be seen", {
          server: name,
          error: describeError(error),
        });
      },
    );
    this.#listening.add(listening);
    listening.finally(() => this.#listening.delete(listening));
  }

  /** Something went wrong on the transport: asks the server (ping, or `server/discover` on 2026-07-28). */
  #check(client: Client, error: unknown): void {
    if (this.#probing) return;
    const { name, settings } = this.#hooks;
    this.#log.debug("MCP transport error; checking the server", {
      server: name,
      error: describeError(error),
    });
    this.#probing = true;
    probeServer(client, Math.min(PROBE_MS, settings.callTimeoutMs)).then(
      () => this.#probing = false,
      (failure) => {
        this.#probing = false;
        if (this.#hooks.current(client)) this.#hooks.dropped(failure);
      },
    );
  }
}
