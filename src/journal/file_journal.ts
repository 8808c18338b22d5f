/**
 * A journal kept as one append-only JSONL file per process.
 *
 * @module
 */

import { join } from "node:path";
import type { Logger } from "../log.ts";
import { AppendFile } from "../_util/append_file.ts";
import { checkReadOptions, closedError, createEntry, parseEntry } from "./_entry.ts";
import { openForRead, readAt } from "../_util/file_tail.ts";
import { readLinesBackward } from "./_read_backward.ts";
import type { Journal, JournalEntry, JournalReadOptions } from "./types.ts";

/** Process names a file journal accepts (they become file names). */
const PROCESS_NAME_PATTERN: RegExp = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/** Options for {@linkcode FileJournal}. */
export interface FileJournalOptions {
  /** Directory holding `<process>.jsonl` files; created on the first append. */
  path: string;
  /** Receives one warning per file that holds malformed lines. */
  logger?: Logger;
  /** Bytes read at a time when reading backwards. @default 65536 */
  chunkSize?: number;
  /** `fdatasync` every append before it resolves (group commit), so it survives a power loss. @default false */
  sync?: boolean;
  /**
   * Process files kept open at most; beyond it the least recently appended one with no write under way is
   * closed (and opened again by its next append). @default 256
   */
  maxOpenFiles?: number;
}

const decoder = new TextDecoder();

/**
 * A journal of JSONL files, `<path>/<process>.jsonl`. Each file is written through one open descriptor
 * ({@linkcode AppendFile}): appends land in call order, and appends made while a write is under way go
 * out together in the next write (with `sync`, one `fdatasync` for all of them). Reads see every append
 * called before them, never half a line, and scan backwards from the end, so `limit` and `stopAt` reads
 * stay cheap on long files.
 *
 * @example
 * ```ts
 * import { FileJournal } from "./file_journal.ts";
 * const journal = new FileJournal({ path: "./.agentry/journal" });
 * await journal.append("writer", "state_transition", { to: "running" });
 * await journal.close();
 * ```
 */
export class FileJournal implements Journal {
  /** Always `"file"`. */
  readonly backend = "file" as const;
  #path: string;
  #logger?: Logger;
  #chunkSize: number;
  #sync: boolean;
  #closed = false;
  #maxOpenFiles: number;
  /** Open writers, least recently appended first. */
  #files = new Map<string, AppendFile>();
  #closing = new Set<Promise<void>>();
  /** Per file, the latest append's promise (settled, never rejecting): reads wait for it. */
  #pending = new Map<string, Promise<void>>();
  #warned = new Set<string>();

  /** A journal on `options.path`; nothing touches the disk until the first append or read. */
  constructor(options: FileJournalOptions) {
    this.#path = options.path;
    this.#logger = options.logger;
    this.#chunkSize = options.chunkSize ?? 65_536;
    this.#sync = options.sync ?? false;
    this.#maxOpenFiles = options.maxOpenFiles ?? 256;
    if (!Number.isInteger(this.#maxOpenFiles) || this.#maxOpenFiles < 1) {
      throw new RangeError("maxOpenFiles must be a positive integer");
    }
    if (!Number.isInteger(this.#chunkSize) || this.#chunkSize < 1) {
      throw new RangeError("chunkSize must be a positive integer");
    }
  }

  /** Appends one entry as one line; resolves once the line is written (and synced, with `sync`). */
  append(process: string, entryType: string, data: Record<string, unknown>): Promise<JournalEntry> {
    try {
      const file = this.#fileOf(process);
      const entry = createEntry(process, entryType, data);
      const writer = this.#writer(file);
      const written = writer.append(JSON.stringify(entry) + "\n");
      const settled = written.catch(() => {});
      this.#pending.set(file, settled);
      settled.then(() => {
        if (this.#pending.get(file) === settled) this.#pending.delete(file);
      });
      return written.then(() => entry);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The newest `limit` matching entries of a process (back to the one `stopAt` accepts), oldest first. */
  async read(process: string, options: JournalReadOptions = {}): Promise<JournalEntry[]> {
    const file = this.#fileOf(process);
    checkReadOptions(options);
    const { type, limit, stopAt } = options;
    const found: JournalEntry[] = [];
    await this.#scan(file, (entry) => {
      if (type !== undefined && entry.entry_type !== type) return false;
      found.push(entry);
      return found.length === limit || (stopAt !== undefined && stopAt(entry));
    });
    return found.reverse();
  }

  /** One entry of a process by id, scanning from the newest line. */
  async get(process: string, entryId: string): Promise<JournalEntry | undefined> {
    const file = this.#fileOf(process);
    let found: JournalEntry | undefined;
    await this.#scan(file, (entry) => {
      if (entry.entry_id === entryId) found = entry;
      return found !== undefined;
    });
    return found;
  }

  /** Waits for pending appends and closes the files; later calls reject. */
  async close(): Promise<void> {
    this.#closed = true;
    const files = [...this.#files.values()];
    this.#files.clear();
    await Promise.all([...files.map((file) => file.close()), ...this.#closing]);
  }

  /** The writer of `file`, now the most recently used; closes an idle one beyond `maxOpenFiles`. */
  #writer(file: string): AppendFile {
    let writer = this.#files.get(file);
    if (writer === undefined) writer = new AppendFile(file, { sync: this.#sync });
    else this.#files.delete(file);
    this.#files.set(file, writer);
    // Only writers with nothing under way are closed: a later writer of their file cannot overtake them.
    for (const [key, idle] of this.#files) {
      if (this.#files.size <= this.#maxOpenFiles) break;
      if (key === file || this.#pending.has(key)) continue;
      this.#files.delete(key);
      const closing = idle.close().catch(() => {});
      this.#closing.add(closing);
      closing.then(() => this.#closing.delete(closing));
    }
    return writer;
  }

  /** The file of a process, after checking the journal is open and the name is safe. */
  #fileOf(process: string): string {
    if (this.#closed) throw closedError(this.backend);
    if (typeof process !== "string" || !PROCESS_NAME_PATTERN.test(process)) {
      throw new Error(
        `invalid journal process name ${JSON.stringify(process)}: must match ${PROCESS_NAME_PATTERN}`,
      );
    }
    return join(this.#path, `${process}.jsonl`);
  }

  /** Calls `visit` on entries from newest to oldest until it returns true or the file starts. */
  async #scan(file: string, visit: (entry: JournalEntry) => boolean): Promise<void> {
    // Every append called before this read is written first; one under way while the file is measured
    // may be half written, so the bytes after the last newline are left for the next read.
    await this.#pending.get(file);
    const opened = await openForRead(file);
    if (opened === undefined) return;
    using handle = opened.handle;
    const size = await completeLines(handle, opened.size);
    let malformed = 0;
    for await (const bytes of readLinesBackward(handle, { size, chunkSize: this.#chunkSize })) {
      const entry = decodeLine(bytes);
      if (entry === undefined) {
        malformed++;
        continue;
      }
      if (visit(entry)) break;
    }
    if (malformed > 0 && !this.#warned.has(file)) {
      this.#warned.add(file);
      this.#logger?.warning("journal file has malformed lines; they are skipped", { path: file, malformed });
    }
  }
}

function decodeLine(bytes: Uint8Array): JournalEntry | undefined {
  const text = decoder.decode(bytes).trim();
  if (text === "") return undefined;
  try {
    return parseEntry(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The length of the first `size` bytes of `file` up to and including its last newline. */
async function completeLines(file: Deno.FsFile, size: number): Promise<number> {
  const step = 4096;
  for (let end = size; end > 0; end -= step) {
    const start = Math.max(0, end - step);
    const bytes = await readAt(file, start, end - start);
    const at = bytes.lastIndexOf(0x0a);
    if (at !== -1) return start + at + 1;
  }
  return 0;
}
