/**
 * FileMemoryStore: long-term memory kept in a directory, surviving restarts.
 *
 * @module
 */

import { join } from "node:path";
import { uuid } from "../../_util/ids.ts";
import { attempt, checkMemory, type MemoryRecord, MemoryRecords } from "./_memory_records.ts";
import type { MemoryMatch, MemorySearchOptions, MemoryStore } from "./memory_store.ts";

/** Name of the file inside the directory. */
export const MEMORY_FILE = "memories.jsonl";

type Line = { op: "add"; id: string; text: string; metadata: Record<string, unknown> } | {
  op: "delete";
  id: string;
};

/**
 * Memory in `<directory>/memories.jsonl` (the `file` provider): one JSON line per addition, a
 * `{"op":"delete"}` line per deletion. {@linkcode FileMemoryStore.open} loads the file, skipping lines it
 * cannot read (a torn last line after a crash), and rewrites it without the deleted memories when it held
 * any. Writes are appended one at a time, in call order.
 *
 * @example
 * ```ts
 * import { FileMemoryStore } from "./file_memory_store.ts";
 * const dir = await Deno.makeTempDir();
 * const memory = await FileMemoryStore.open(dir);
 * await memory.add("Invoices go to accounts@example.com.");
 * await memory.close();
 * console.log((await FileMemoryStore.open(dir)).size()); // 1
 * ```
 */
export class FileMemoryStore implements MemoryStore {
  /** The directory. */
  readonly directory: string;
  #file: string;
  #records: MemoryRecords;
  #writes: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(directory: string, records: MemoryRecords) {
    this.directory = directory;
    this.#file = join(directory, MEMORY_FILE);
    this.#records = records;
  }

  /** Opens (creating it when missing) the store in `directory`. */
  static async open(directory: string): Promise<FileMemoryStore> {
    await Deno.mkdir(directory, { recursive: true });
    const file = join(directory, MEMORY_FILE);
    let text = "";
    try {
      text = await Deno.readTextFile(file);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    const records = new MemoryRecords();
    let lines = 0;
    for (const line of text.split("\n")) {
      const parsed = parseLine(line);
      if (!parsed) continue;
      lines++;
      if (parsed.op === "add") records.insert(parsed);
      else records.remove(parsed.id);
    }
    if (lines > records.size) await rewrite(file, records.all());
    return new FileMemoryStore(directory, records);
  }

  /** Stores `text`; throws a TypeError for an empty text or metadata that is not an object. */
  add(text: string, metadata: Record<string, unknown> = {}): Promise<string> {
    return attempt(() => {
      this.#open();
      checkMemory(text, metadata);
      const id = uuid();
      const record: MemoryRecord = { id, text, metadata };
      const line = JSON.stringify({ op: "add", ...record });
      this.#records.insert(record);
      return this.#append(line).then(() => id, (error) => {
        this.#records.remove(id);
        throw error;
      });
    });
  }

  /** The best matches for `query`. */
  search(query: string, options?: MemorySearchOptions): Promise<MemoryMatch[]> {
    return attempt(() => {
      this.#open();
      return this.#records.search(query, options);
    });
  }

  /** Forgets `id`, appending a deletion line when it existed. */
  delete(id: string): Promise<boolean> {
    return attempt(() => {
      this.#open();
      if (!this.#records.remove(id)) return Promise.resolve(false);
      return this.#append(JSON.stringify({ op: "delete", id })).then(() => true);
    });
  }

  /** Number of memories. */
  size(): number {
    return this.#records.size;
  }

  /** Waits for pending writes; later calls reject. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#writes;
  }

  #open(): void {
    if (this.#closed) throw new Error("the memory store is closed");
  }

  #append(line: string): Promise<void> {
    const write = this.#writes.then(() => Deno.writeTextFile(this.#file, `${line}\n`, { append: true }));
    this.#writes = write.catch(() => undefined);
    return write;
  }
}

function parseLine(line: string): (Line & { op: "add" }) | (Line & { op: "delete" }) | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  if (typeof entry.id !== "string") return undefined;
  if (entry.op === "delete") return { op: "delete", id: entry.id };
  const metadata = entry.metadata;
  if (entry.op !== "add" || typeof entry.text !== "string") return undefined;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return undefined;
  return { op: "add", id: entry.id, text: entry.text, metadata: metadata as Record<string, unknown> };
}

async function rewrite(file: string, records: MemoryRecord[]): Promise<void> {
  const temp = `${file}.tmp`;
  const text = records.map((record) => JSON.stringify({ op: "add", ...record }) + "\n").join("");
  await Deno.writeTextFile(temp, text);
  await Deno.rename(temp, file);
}
