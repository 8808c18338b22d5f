/**
 * An in-memory journal: fast, bounded, and gone when the process exits.
 *
 * @module
 */

import { attempt, checkReadOptions, closedError, copyEntry, createEntry, selectEntries } from "./_entry.ts";
import type { Journal, JournalEntry, JournalReadOptions } from "./types.ts";

/** Options for {@linkcode MemoryJournal}. */
export interface MemoryJournalOptions {
  /** Most entries kept per process; the oldest are dropped beyond it. @default 10000 */
  maxEntriesPerProcess?: number;
}

/**
 * A journal kept in memory, per process name, bounded per process.
 *
 * @example
 * ```ts
 * import { MemoryJournal } from "./memory_journal.ts";
 * const journal = new MemoryJournal({ maxEntriesPerProcess: 100 });
 * await journal.append("writer", "state_transition", { to: "running" });
 * const entries = await journal.read("writer", { limit: 10 });
 * ```
 */
export class MemoryJournal implements Journal {
  /** Always `"memory"`. */
  readonly backend = "memory" as const;
  #entries = new Map<string, JournalEntry[]>();
  #max: number;
  #closed = false;

  /** Creates an empty journal; throws a RangeError for a bound that is not a positive integer. */
  constructor(options: MemoryJournalOptions = {}) {
    const max = options.maxEntriesPerProcess ?? 10_000;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`maxEntriesPerProcess must be a positive integer, got ${String(max)}`);
    }
    this.#max = max;
  }

  /** Appends one entry, dropping the process's oldest entries beyond the bound. */
  append(process: string, entryType: string, data: Record<string, unknown>): Promise<JournalEntry> {
    return attempt(() => {
      this.#checkOpen();
      const entry = createEntry(process, entryType, data);
      let list = this.#entries.get(process);
      if (list === undefined) {
        list = [];
        this.#entries.set(process, list);
      }
      list.push(entry);
      if (list.length > this.#max) list.splice(0, list.length - this.#max);
      return copyEntry(entry);
    });
  }

  /** The newest `limit` matching entries of a process, oldest first. */
  read(process: string, options: JournalReadOptions = {}): Promise<JournalEntry[]> {
    return attempt(() => {
      this.#checkOpen();
      checkReadOptions(options);
      return selectEntries(this.#entries.get(process) ?? [], options);
    });
  }

  /** One entry of a process by id. */
  get(process: string, entryId: string): Promise<JournalEntry | undefined> {
    return attempt(() => {
      this.#checkOpen();
      const entry = this.#entries.get(process)?.find((e) => e.entry_id === entryId);
      return entry === undefined ? undefined : copyEntry(entry);
    });
  }

  /** Drops all entries; later calls reject. */
  close(): Promise<void> {
    this.#closed = true;
    this.#entries.clear();
    return Promise.resolve();
  }

  #checkOpen(): void {
    if (this.#closed) throw closedError(this.backend);
  }
}
