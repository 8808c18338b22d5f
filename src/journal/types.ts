/**
 * The journal contract: an append-only record of what happened to each process, kept per process name.
 *
 * @module
 */

/** A journal detail level. `none` keeps no journal at all. */
export type JournalLevel = "none" | "checkpoint" | "full";

/** Journal detail levels. */
export const JOURNAL_LEVELS: readonly ["none", "checkpoint", "full"] = ["none", "checkpoint", "full"];

/** A journal storage backend. */
export type JournalBackend = "memory" | "file" | "sqlite";

/** Journal storage backends. */
export const JOURNAL_BACKENDS: readonly ["memory", "file", "sqlite"] = ["memory", "file", "sqlite"];

/** One journal entry as stored and as the API shows it (plus `process`). */
export interface JournalEntry {
  /** Unique id (UUID); a rewind target. */
  entry_id: string;
  /** Process name the entry belongs to (names survive restarts; process ids do not). */
  process: string;
  /** What happened, e.g. `state_transition`, `api_request`. */
  entry_type: string;
  /** ISO 8601 UTC time of the append. */
  timestamp: string;
  /** Type-specific JSON object. */
  data: Record<string, unknown>;
}

/** Options for {@linkcode Journal.read}. */
export interface JournalReadOptions {
  /** Most entries returned: the newest ones after filtering, in chronological order. @default all */
  limit?: number;
  /** Only entries of this `entry_type`. */
  type?: string;
  /**
   * Reading goes from the newest entry backwards and stops at the first entry (after the `type` filter)
   * for which this answers true; that entry is the oldest one returned. Lets a reader that needs only the
   * entries since some mark (the last checkpoint, say) skip the rest of a long journal. @default read all
   */
  stopAt?: (entry: JournalEntry) => boolean;
}

/** Storage for journal entries of many processes. Implementations serialise their own writes. */
export interface Journal {
  /** Which backend this is. */
  readonly backend: JournalBackend;
  /** Appends one entry and returns it with its id and timestamp. */
  append(process: string, entryType: string, data: Record<string, unknown>): Promise<JournalEntry>;
  /** The newest `limit` matching entries of a process, oldest first. */
  read(process: string, options?: JournalReadOptions): Promise<JournalEntry[]>;
  /** One entry of a process by id. */
  get(process: string, entryId: string): Promise<JournalEntry | undefined>;
  /** Flushes and releases the storage; later calls reject. */
  close(): Promise<void>;
}
