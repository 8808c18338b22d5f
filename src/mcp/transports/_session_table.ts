/**
 * The sessions one fetch handler serves, in two pools: sessions waiting for the client's
 * `notifications/initialized` (closed once older than the init timeout; when that pool is full the
 * oldest waiting session is closed to make room) and initialised sessions (capped at `maxSessions`,
 * closed after the idle timeout). Each client (principal or address) holds at most
 * `maxSessionsPerClient` sessions of both kinds, reservations included. Lookup by id is bound to the
 * principal that opened the session. A sweep on an unref'd interval runs only while sessions exist.
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
  client?: string;
  /** Creation time while waiting, last activity once initialised. */
  since: number;
}

/** Options for {@linkcode SessionTable}. */
export interface SessionTableOptions {
  /** Most initialised sessions at once; as many more may wait for initialisation. */
  maxSessions: number;
  /** Most sessions (waiting, initialised or being opened) one client holds. */
  maxSessionsPerClient: number;
  /** Milliseconds of inactivity after which an initialised session is closed. */
  idleTimeoutMs: number;
  /** Milliseconds a session may wait for `notifications/initialized` before it is closed. */
  initTimeoutMs: number;
  /** Where evictions and close failures are logged. */
  logger: Logger;
}

/** Whether a new session may be opened: yes, or why not. */
export type Admission = "ok" | "client" | "full" | "closed";

/** What the opener of a session passes to {@linkcode SessionTable.add}. */
export interface SessionOwner {
  /** The principal the session is bound to. */
  principal?: string;
  /** The key the session counts under for the per-client cap. */
  client?: string;
}

function unref(timer: ReturnType<typeof setInterval>): void {
  if (typeof timer === "number") Deno.unrefTimer(timer);
  else (timer as { unref?: () => void }).unref?.();
}

/** Live sessions by id. */
export class SessionTable<T extends Closable> {
  #waiting = new Map<string, Entry<T>>();
  #ready = new Map<string, Entry<T>>();
  #reserved = 0;
  #perClient = new Map<string, number>();
  #options: SessionTableOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  /** An empty table. */
  constructor(options: SessionTableOptions) {
    this.#options = options;
  }

  /** Open sessions, waiting and initialised. */
  get size(): number {
    return this.#waiting.size + this.#ready.size;
  }

  /** Initialised sessions (the ones `maxSessions` caps). */
  get initialised(): number {
    return this.#ready.size;
  }

  /**
   * Reserves room for a session `client` is opening (closing the oldest waiting session when that pool
   * is full); anything but "ok" reserves nothing. Pair an "ok" with {@linkcode release}.
   */
  reserve(client: string | undefined): Admission {
    if (this.#closed) return "closed";
    const { maxSessions, maxSessionsPerClient } = this.#options;
    if (client !== undefined && (this.#perClient.get(client) ?? 0) >= maxSessionsPerClient) return "client";
    if (this.#ready.size >= maxSessions) return "full";
    if (this.#waiting.size + this.#reserved >= maxSessions) {
      const oldest = this.#waiting.entries().next();
      if (oldest.done) return "full";
      this.#evict(oldest.value[0], oldest.value[1], "making room for a new MCP session");
    }
    this.#reserved++;
    this.#count(client, 1);
    return "ok";
  }

  /** Gives back a reservation of `client`. */
  release(client: string | undefined): void {
    this.#reserved = Math.max(0, this.#reserved - 1);
    this.#count(client, -1);
  }

  /** Adds a session waiting for initialisation; false (and nothing added) after {@linkcode closeAll}. */
  add(id: string, value: T, owner: SessionOwner): boolean {
    if (this.#closed) return false;
    this.#waiting.set(id, { value, ...owner, since: Date.now() });
    this.#count(owner.client, 1);
    this.#startSweep();
    return true;
  }

  /** Moves session `id` to the initialised pool; false when that pool is full or `id` is gone. */
  promote(id: string): boolean {
    const entry = this.#waiting.get(id);
    if (!entry) return this.#ready.has(id);
    if (this.#ready.size >= this.#options.maxSessions) {
      this.#options.logger.warning("MCP session table full, closing a newly initialised session", {
        session: id,
      });
      return false;
    }
    this.#waiting.delete(id);
    entry.since = Date.now();
    this.#ready.set(id, entry);
    return true;
  }

  /** The session `id` when `principal` matches the one that opened it; marks an initialised one active. */
  get(id: string, principal: string | undefined): T | undefined {
    const ready = this.#ready.get(id);
    const entry = ready ?? this.#waiting.get(id);
    if (!entry || entry.principal !== principal) return undefined;
    if (ready) ready.since = Date.now();
    return entry.value;
  }

  /** Marks initialised session `id` active. */
  touch(id: string): void {
    const entry = this.#ready.get(id);
    if (entry) entry.since = Date.now();
  }

  /** Forgets session `id` (called when its transport closes). */
  delete(id: string): void {
    const entry = this.#waiting.get(id) ?? this.#ready.get(id);
    if (!entry) return;
    this.#waiting.delete(id);
    this.#ready.delete(id);
    this.#count(entry.client, -1);
    if (this.size === 0) this.#stopSweep();
  }

  /** Closes every session and refuses new ones. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    this.#stopSweep();
    const values = [...this.#waiting.values(), ...this.#ready.values()].map((e) => e.value);
    this.#waiting.clear();
    this.#ready.clear();
    this.#perClient.clear();
    await Promise.all(values.map((value) => this.#close(value)));
  }

  #count(client: string | undefined, delta: number): void {
    if (client === undefined) return;
    const count = (this.#perClient.get(client) ?? 0) + delta;
    if (count > 0) this.#perClient.set(client, count);
    else this.#perClient.delete(client);
  }

  #evict(id: string, entry: Entry<T>, message: string): void {
    this.delete(id);
    this.#options.logger.info(message, { session: id });
    void this.#close(entry.value);
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
    const shortest = Math.min(this.#options.idleTimeoutMs, this.#options.initTimeoutMs);
    const every = Math.min(Math.max(shortest / 4, 10), 60_000);
    this.#timer = setInterval(() => this.#sweep(), every);
    unref(this.#timer);
  }

  #stopSweep(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, entry] of this.#waiting) {
      if (entry.since > now - this.#options.initTimeoutMs) break;
      this.#evict(id, entry, "closing an MCP session never initialised");
    }
    for (const [id, entry] of this.#ready) {
      if (entry.since > now - this.#options.idleTimeoutMs) continue;
      this.#evict(id, entry, "closing idle MCP session");
    }
  }
}
