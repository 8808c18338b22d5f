/**
 * The sessions one fetch handler serves: lookup by id bound to the principal that opened the session,
 * a cap on their number, and eviction of sessions idle for too long (a sweep on an unref'd interval that
 * runs only while sessions exist).
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import type { Logger } from "../../log.ts";

/** Something a session table can close. */
export interface Closable {
  /** Ends the session (its transport calls back {@linkcode SessionTable.delete}). */
  close(): Promise<void>;
}

interface Entry<T> {
  value: T;
  principal?: string;
  lastSeen: number;
}

/** Options for {@linkcode SessionTable}. */
export interface SessionTableOptions {
  /** Most sessions at once (pending initializations included). */
  maxSessions: number;
  /** Milliseconds of inactivity after which a session is closed. */
  idleTimeoutMs: number;
  /** Where evictions and close failures are logged. */
  logger: Logger;
}

function unref(timer: ReturnType<typeof setInterval>): void {
  if (typeof timer === "number") Deno.unrefTimer(timer);
  else (timer as { unref?: () => void }).unref?.();
}

/** Live sessions by id. */
export class SessionTable<T extends Closable> {
  #entries = new Map<string, Entry<T>>();
  #pending = 0;
  #options: SessionTableOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  /** An empty table. */
  constructor(options: SessionTableOptions) {
    this.#options = options;
  }

  /** Open sessions. */
  get size(): number {
    return this.#entries.size;
  }

  /** Reserves room for a session being opened; false when full or closed. Pair with {@linkcode release}. */
  reserve(): boolean {
    if (this.#closed || this.#entries.size + this.#pending >= this.#options.maxSessions) return false;
    this.#pending++;
    return true;
  }

  /** Gives back a reservation. */
  release(): void {
    this.#pending = Math.max(0, this.#pending - 1);
  }

  /** Adds a session opened by `principal`; false (and nothing added) after {@linkcode closeAll}. */
  add(id: string, value: T, principal: string | undefined): boolean {
    if (this.#closed) return false;
    this.#entries.set(id, { value, principal, lastSeen: Date.now() });
    this.#startSweep();
    return true;
  }

  /** The session `id` when `principal` matches the one that opened it; marks it active. */
  get(id: string, principal: string | undefined): T | undefined {
    const entry = this.#entries.get(id);
    if (!entry || entry.principal !== principal) return undefined;
    entry.lastSeen = Date.now();
    return entry.value;
  }

  /** Marks session `id` active. */
  touch(id: string): void {
    const entry = this.#entries.get(id);
    if (entry) entry.lastSeen = Date.now();
  }

  /** Forgets session `id` (called when its transport closes). */
  delete(id: string): void {
    this.#entries.delete(id);
    if (this.#entries.size === 0) this.#stopSweep();
  }

  /** Closes every session and refuses new ones. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    this.#stopSweep();
    const values = [...this.#entries.values()].map((e) => e.value);
    this.#entries.clear();
    await Promise.all(values.map((value) => this.#close(value)));
  }

  async #close(value: T): Promise<void> {
    try {
      await value.close();
    } catch (error) {
      this.#options.logger.warning("closing a session failed", { error: describeError(error) });
    }
  }

  #startSweep(): void {
    if (this.#timer !== undefined) return;
    const every = Math.min(Math.max(this.#options.idleTimeoutMs / 4, 10), 60_000);
    this.#timer = setInterval(() => this.#sweep(), every);
    unref(this.#timer);
  }

  #stopSweep(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    const cutoff = Date.now() - this.#options.idleTimeoutMs;
    for (const [id, entry] of this.#entries) {
      if (entry.lastSeen > cutoff) continue;
      this.delete(id);
      this.#options.logger.info("closing idle MCP session", { session: id });
      void this.#close(entry.value);
    }
  }
}
