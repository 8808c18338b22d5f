/**
 * A journal kept as one append-only JSONL file per process.
 *
 * @module
 */

import { join } from "node:path";
import type { Logger } from "../log.ts";
import { checkReadOptions, closedError, createEntry, parseEntry } from "./_entry.ts";
import { endsWithNewline, openForRead } from "../_util/file_tail.ts";
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
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A journal of JSONL files, `<path>/<process>.jsonl`. Appends to a file are serialised in call order;
 * reads scan backwards from the end, so `limit` reads stay cheap on long files.
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
  #closed = false;
  #dirReady?: Promise<void>;
  #tails = new Map<string, Promise<void>>();
  #checkedEnds = new Set<string>();
  #warned = new Set<string>();

  /** A journal on `options.path`; nothing touches the disk until the first append or read. */
  constructor(options: FileJournalOptions) {
    this.#path = options.path;
    this.#logger = options.logger;
    this.#chunkSize = options.chunkSize ?? 65_536;
    if (!Number.isInteger(this.#chunkSize) || this.#chunkSize < 1) {
      throw new RangeError("chunkSize must be a positive integer");
    }
  }

  /** Appends one entry as one line; resolves once the line is written. */
  append(process: string, entryType: string, data: Record<string, unknown>): Promise<JournalEntry> {
    try {
      const file = this.#fileOf(process);
      const entry = createEntry(process, entryType, data);
      const line = encoder.encode(JSON.stringify(entry) + "\n");
      return this.#enqueue(file, () => this.#write(file, line)).then(() => entry);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The newest `limit` matching entries of a process, oldest first. */
  async read(process: string, options: JournalReadOptions = {}): Promise<JournalEntry[]> {
    const file = this.#fileOf(process);
    checkReadOptions(options);
    const found: JournalEntry[] = [];
    await this.#scan(file, (entry) => {
      if (options.type !== undefined && entry.entry_type !== options.type) return false;
      found.push(entry);
      return found.length === options.limit;
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

  /** Waits for pending appends; later calls reject. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#tails.values());
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

  /** Runs `task` after every earlier task on `file`. */
  #enqueue<T>(file: string, task: () => Promise<T>): Promise<T> {
    const run = (this.#tails.get(file) ?? Promise.resolve()).then(task);
    const tail = run.then(() => {}, () => {});
    this.#tails.set(file, tail);
    tail.then(() => {
      if (this.#tails.get(file) === tail) this.#tails.delete(file);
    });
    return run;
  }

  async #write(file: string, line: Uint8Array): Promise<void> {
    this.#dirReady ??= Deno.mkdir(this.#path, { recursive: true }).catch((error) => {
      this.#dirReady = undefined;
      throw error;
    });
    await this.#dirReady;
    // A torn last line (from a crash) must not swallow the next entry: start on a fresh line.
    if (!this.#checkedEnds.has(file) && !(await endsWithNewline(file))) line = withLeadingNewline(line);
    await Deno.writeFile(file, line, { append: true, create: true, mode: 0o600 });
    this.#checkedEnds.add(file);
  }

  /** Calls `visit` on entries from newest to oldest until it returns true or the file starts. */
  async #scan(file: string, visit: (entry: JournalEntry) => boolean): Promise<void> {
    // Open and measure in turn with appends, so a line being written is never half seen.
    const opened = await this.#enqueue(file, () => openForRead(file));
    if (opened === undefined) return;
    using handle = opened.handle;
    const size = opened.size;
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

function withLeadingNewline(line: Uint8Array): Uint8Array {
  const out = new Uint8Array(line.length + 1);
  out[0] = 0x0a;
  out.set(line, 1);
  return out;
}
