/**
 * A journal kept in one SQLite database (`node:sqlite`), in WAL mode.
 *
 * @module
 */

import { join } from "node:path";
import { DatabaseSync, type SQLOutputValue, type StatementSync } from "node:sqlite";
import { attempt, checkReadOptions, closedError, createEntry, parseEntry } from "./_entry.ts";
import type { Journal, JournalEntry, JournalReadOptions } from "./types.ts";

/** Options for {@linkcode SqliteJournal}. */
export interface SqliteJournalOptions {
  /** Directory holding `journal.db`; created when the journal opens. */
  path: string;
  /**
   * Each append is on disk before it resolves (`synchronous = FULL`), so it survives a power loss;
   * without it (`NORMAL`, WAL) it survives a crash of the runtime, not of the machine. @default false
   */
  sync?: boolean;
}

/** Name of the database file inside the journal directory. */
export const SQLITE_JOURNAL_FILE = "journal.db";

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS journal_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id TEXT NOT NULL UNIQUE,
    process TEXT NOT NULL,
    entry_type TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    data TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS journal_entries_process_seq ON journal_entries (process, seq);
  CREATE INDEX IF NOT EXISTS journal_entries_process_type_seq ON journal_entries (process, entry_type, seq);
`;

const COLUMNS = "entry_id, process, entry_type, timestamp, data";

/** Rows fetched at a time by a read with `stopAt`. */
const PAGE = 512;

interface Statements {
  insert: StatementSync;
  newest: StatementSync;
  newestOfType: StatementSync;
  page: StatementSync;
  pageOfType: StatementSync;
  get: StatementSync;
}

/**
 * A journal in `<path>/journal.db`. Writes are synchronous inside SQLite, so they keep call order.
 *
 * @example
 * ```ts
 * import { SqliteJournal } from "./sqlite_journal.ts";
 * const journal = new SqliteJournal({ path: "./.agentry/journal" });
 * await journal.append("writer", "state_transition", { to: "running" });
 * await journal.close();
 * ```
 */
export class SqliteJournal implements Journal {
  /** Always `"sqlite"`. */
  readonly backend = "sqlite" as const;
  #db: DatabaseSync;
  #statements: Statements;
  #closed = false;

  /** Opens (creating when needed) the directory and `journal.db`, in WAL mode with the schema in place. */
  constructor(options: SqliteJournalOptions) {
    Deno.mkdirSync(options.path, { recursive: true });
    this.#db = new DatabaseSync(join(options.path, SQLITE_JOURNAL_FILE));
    try {
      const synchronous = options.sync ? "FULL" : "NORMAL";
      this.#db.exec(
        `PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA synchronous = ${synchronous};`,
      );
      this.#db.exec(SCHEMA);
      this.#statements = {
        insert: this.#db.prepare(`INSERT INTO journal_entries (${COLUMNS}) VALUES (?, ?, ?, ?, ?)`),
        // LIMIT -1 means no limit in SQLite.
        newest: this.#db.prepare(
          `SELECT ${COLUMNS} FROM journal_entries WHERE process = ? ORDER BY seq DESC LIMIT ?`,
        ),
        newestOfType: this.#db.prepare(
          `SELECT ${COLUMNS} FROM journal_entries WHERE process = ? AND entry_type = ? ORDER BY seq DESC LIMIT ?`,
        ),
        page: this.#db.prepare(
          `SELECT seq, ${COLUMNS} FROM journal_entries WHERE process = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
        ),
        pageOfType: this.#db.prepare(
          `SELECT seq, ${COLUMNS} FROM journal_entries WHERE process = ? AND entry_type = ? AND seq < ?
           ORDER BY seq DESC LIMIT ?`,
        ),
        get: this.#db.prepare(`SELECT ${COLUMNS} FROM journal_entries WHERE process = ? AND entry_id = ?`),
      };
    } catch (error) {
      this.#db.close();
      throw error;
    }
  }

  /** Whether each append is on disk before it resolves (the connection's `synchronous` is `FULL`). */
  get sync(): boolean {
    this.#checkOpen();
    return this.#db.prepare("PRAGMA synchronous").get()?.synchronous === 2;
  }

  /** Appends one entry as one row. */
  append(process: string, entryType: string, data: Record<string, unknown>): Promise<JournalEntry> {
    return attempt(() => {
      this.#checkOpen();
      const entry = createEntry(process, entryType, data);
      this.#statements.insert.run(
        entry.entry_id,
        entry.process,
        entry.entry_type,
        entry.timestamp,
        JSON.stringify(entry.data),
      );
      return entry;
    });
  }

  /** The newest `limit` matching entries of a process (back to the one `stopAt` accepts), oldest first. */
  read(process: string, options: JournalReadOptions = {}): Promise<JournalEntry[]> {
    return attempt(() => {
      this.#checkOpen();
      checkReadOptions(options);
      if (options.stopAt !== undefined) return this.#readBack(process, options, options.stopAt);
      const limit = options.limit ?? -1;
      const rows = options.type === undefined
        ? this.#statements.newest.all(process, limit)
        : this.#statements.newestOfType.all(process, options.type, limit);
      return rows.map(rowToEntry).reverse();
    });
  }

  /** One entry of a process by id. */
  get(process: string, entryId: string): Promise<JournalEntry | undefined> {
    return attempt(() => {
      this.#checkOpen();
      const row = this.#statements.get.get(process, entryId);
      return row === undefined ? undefined : rowToEntry(row);
    });
  }

  /** Closes the database; later calls reject. */
  close(): Promise<void> {
    return attempt(() => {
      if (this.#closed) return;
      this.#closed = true;
      this.#db.close();
    });
  }

  /** Pages backwards by `seq` until `stopAt` accepts an entry or `limit` entries are found. */
  #readBack(
    process: string,
    options: JournalReadOptions,
    stopAt: (entry: JournalEntry) => boolean,
  ): JournalEntry[] {
    const found: JournalEntry[] = [];
    let before = Number.MAX_SAFE_INTEGER;
    while (true) {
      const rows = options.type === undefined
        ? this.#statements.page.all(process, before, PAGE)
        : this.#statements.pageOfType.all(process, options.type, before, PAGE);
      for (const row of rows) {
        const entry = rowToEntry(row);
        found.push(entry);
        if (found.length === options.limit || stopAt(entry)) return found.reverse();
      }
      if (rows.length < PAGE) return found.reverse();
      before = Number(rows[rows.length - 1].seq);
    }
  }

  #checkOpen(): void {
    if (this.#closed) throw closedError(this.backend);
  }
}

function rowToEntry(row: Record<string, SQLOutputValue>): JournalEntry {
  const { entry_id, process, entry_type, timestamp } = row;
  const data = typeof row.data === "string" ? JSON.parse(row.data) : undefined;
  const entry = parseEntry({ entry_id, process, entry_type, timestamp, data });
  if (entry === undefined) throw new Error(`malformed journal row ${String(row.entry_id)}`);
  return entry;
}
