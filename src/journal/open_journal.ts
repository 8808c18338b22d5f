/**
 * Opening journals by backend name, and a pool that shares one journal per storage location.
 *
 * @module
 */

import { resolve } from "node:path";
import type { Logger } from "../log.ts";
import { FileJournal } from "./file_journal.ts";
import { MemoryJournal } from "./memory_journal.ts";
import { SqliteJournal } from "./sqlite_journal.ts";
import { type Journal, JOURNAL_BACKENDS, type JournalBackend } from "./types.ts";

/** Options for {@linkcode openJournal} and {@linkcode JournalPool.open}. */
export interface OpenJournalOptions {
  /** Storage backend. */
  backend: JournalBackend;
  /** Directory of the journal; required for `file` and `sqlite`, ignored for `memory`. */
  path?: string;
  /** Logger for backend warnings (the file backend reports malformed lines). */
  logger?: Logger;
  /** Every append is on disk (`fdatasync`) before it resolves; `file` and `sqlite` only. @default false */
  sync?: boolean;
}

/**
 * Opens a new journal of the given backend.
 *
 * @throws {Error} when `path` is missing for `file` or `sqlite`, or the backend is unknown.
 * @example
 * ```ts
 * import { openJournal } from "./open_journal.ts";
 * const journal = openJournal({ backend: "memory" });
 * await journal.append("writer", "state_transition", { to: "running" });
 * ```
 */
export function openJournal(options: OpenJournalOptions): Journal {
  switch (options.backend) {
    case "memory":
      return new MemoryJournal();
    case "file":
      return new FileJournal({ path: requirePath(options), logger: options.logger, sync: options.sync });
    case "sqlite":
      return new SqliteJournal({ path: requirePath(options), sync: options.sync });
    default:
      throw new Error(
        `unknown journal backend ${JSON.stringify(options.backend)}; expected one of ${
          JOURNAL_BACKENDS.join(", ")
        }`,
      );
  }
}

/**
 * Hands out one shared journal per backend and resolved absolute path (one per pool for `memory`),
 * so processes that journal to the same place share one writer. Callers must not close pooled
 * journals themselves; {@linkcode JournalPool.closeAll} does.
 *
 * @example
 * ```ts
 * import { JournalPool } from "./open_journal.ts";
 * const pool = new JournalPool();
 * const a = pool.open({ backend: "memory" });
 * const b = pool.open({ backend: "memory" });
 * console.assert(a === b);
 * await pool.closeAll();
 * ```
 */
export class JournalPool {
  #journals = new Map<string, Journal>();
  #sync: boolean;

  /** An empty pool; with `sync` every journal it opens syncs each append (see {@linkcode OpenJournalOptions.sync}). */
  constructor(options: { sync?: boolean } = {}) {
    this.#sync = options.sync ?? false;
  }

  /** Whether the pool's journals sync each append. */
  get sync(): boolean {
    return this.#sync;
  }

  /** The pool's journal for this backend and location, opened on first use (with the pool's `sync`). */
  open(options: OpenJournalOptions): Journal {
    const key = options.backend === "memory"
      ? "memory"
      : `${options.backend}:${resolve(requirePath(options))}`;
    let journal = this.#journals.get(key);
    if (journal === undefined) {
      journal = openJournal({ ...options, sync: options.sync ?? this.#sync });
      this.#journals.set(key, journal);
    }
    return journal;
  }

  /** Closes every journal of the pool and empties it; later `open` calls open new journals. */
  async closeAll(): Promise<void> {
    const journals = [...this.#journals.values()];
    this.#journals.clear();
    const results = await Promise.allSettled(journals.map((journal) => journal.close()));
    const failures = results.flatMap((r) => r.status === "rejected" ? [r.reason] : []);
    if (failures.length > 0) throw new AggregateError(failures, "some journals failed to close");
  }
}

function requirePath(options: OpenJournalOptions): string {
  if (typeof options.path !== "string" || options.path === "") {
    throw new Error(`journal backend "${options.backend}" requires a path (a directory)`);
  }
  return options.path;
}
