/**
 * The journal: an append-only record of what happened to each process, kept per process name in
 * memory, in JSONL files or in SQLite. {@linkcode ProcessJournal} binds a journal to one process and
 * a detail level; {@linkcode JournalPool} shares one journal per storage location.
 *
 * @example
 * ```ts
 * import { JournalPool, ProcessJournal } from "./mod.ts";
 * const pool = new JournalPool();
 * const journal = new ProcessJournal(pool.open({ backend: "memory" }), { process: "writer", level: "full" });
 * await journal.record("state_transition", { from: "idle", to: "running" });
 * console.log(await journal.read({ limit: 10 }));
 * await pool.closeAll();
 * ```
 *
 * @module
 */

export {
  type Journal,
  JOURNAL_BACKENDS,
  JOURNAL_LEVELS,
  type JournalBackend,
  type JournalEntry,
  type JournalLevel,
  type JournalReadOptions,
} from "./types.ts";
export { MemoryJournal, type MemoryJournalOptions } from "./memory_journal.ts";
export { FileJournal, type FileJournalOptions } from "./file_journal.ts";
export { SQLITE_JOURNAL_FILE, SqliteJournal, type SqliteJournalOptions } from "./sqlite_journal.ts";
export { JournalPool, openJournal, type OpenJournalOptions } from "./open_journal.ts";
export {
  FULL_ONLY_ENTRY_TYPES,
  type JournalRedactor,
  ProcessJournal,
  type ProcessJournalOptions,
} from "./process_journal.ts";
