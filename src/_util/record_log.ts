/**
 * {@linkcode RecordLog}: a small durable map, kept as a JSONL log of changes (`put`, `patch`, `delete`)
 * over an {@linkcode AppendFile}. The runtime keeps queued events, dead letters and inbox messages in
 * such logs so an acknowledged item survives a crash.
 *
 * @module
 */

import { AppendFile } from "./append_file.ts";

/** Options for {@linkcode RecordLog.open}. */
export interface RecordLogOptions<V> {
  /** The log file. Without one the log keeps its records in memory only. */
  path?: string;
  /** `fdatasync` before a change resolves (see {@linkcode AppendFile}). @default false */
  sync?: boolean;
  /** Checks a stored value and returns it typed; throws when it is not one. */
  parse: (value: unknown) => V;
  /** The file is known not to exist yet: nothing is read. @default false */
  fresh?: boolean;
  /** Compaction runs past this many lines, when they are also 4 times the live records. @default 1000 */
  compactAfter?: number;
}

/** A log as opened: the records it held and the lines it could not read (torn or foreign). */
export interface OpenedRecordLog<V> {
  /** The log, ready for changes. */
  log: RecordLog<V>;
  /** One text per unreadable line, e.g. `events.jsonl line 4: not JSON (a torn write?)`. */
  problems: string[];
}

type Line =
  | { op: "put"; key: string; value: unknown }
  | { op: "patch"; key: string; fields: Record<string, unknown> }
  | { op: "delete"; key: string };

/**
 * A map whose every change is appended to a file before the change's promise resolves. Records keep the
 * order they were first put in. When the file holds more than `compactAfter` lines and 4 times the live
 * records it is rewritten (temporary file, then rename). Values are owned by the log once put.
 *
 * @example
 * ```ts
 * import { RecordLog } from "./record_log.ts";
 * const dir = await Deno.makeTempDir();
 * const parse = (value: unknown) => value as { n: number };
 * const { log } = await RecordLog.open({ path: `${dir}/items.jsonl`, parse });
 * await log.put("a", { n: 1 });
 * await log.close();
 * const { log: again } = await RecordLog.open({ path: `${dir}/items.jsonl`, parse });
 * console.log(again.get("a")); // { n: 1 }
 * ```
 */
export class RecordLog<V> {
  #file: AppendFile | undefined;
  #records: Map<string, V>;
  #lines: number;
  #compactAfter: number;

  private constructor(
    file: AppendFile | undefined,
    records: Map<string, V>,
    lines: number,
    compactAfter: number,
  ) {
    this.#file = file;
    this.#records = records;
    this.#lines = lines;
    this.#compactAfter = compactAfter;
  }

  /** Reads the log (a missing file is an empty log) and opens it for changes. */
  static async open<V>(options: RecordLogOptions<V>): Promise<OpenedRecordLog<V>> {
    const records = new Map<string, V>();
    const problems: string[] = [];
    const compactAfter = options.compactAfter ?? 1000;
    if (options.path === undefined) {
      return { log: new RecordLog<V>(undefined, records, 0, compactAfter), problems };
    }
    let text = "";
    try {
      if (!options.fresh) text = await Deno.readTextFile(options.path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    const name = options.path.split("/").pop();
    let lines = 0;
    text.split("\n").forEach((raw, index) => {
      if (raw.trim() === "") return;
      lines++;
      const problem = replay(raw, records, options.parse);
      if (problem) problems.push(`${name} line ${index + 1}: ${problem}`);
    });
    const file = new AppendFile(options.path, { sync: options.sync });
    return { log: new RecordLog(file, records, lines, compactAfter), problems };
  }

  /** Live records. */
  get size(): number {
    return this.#records.size;
  }

  /** The record under `key`. */
  get(key: string): V | undefined {
    return this.#records.get(key);
  }

  /** Whether a record is under `key`. */
  has(key: string): boolean {
    return this.#records.has(key);
  }

  /** Live records in the order they were first put. */
  values(): V[] {
    return [...this.#records.values()];
  }

  /** Sets the record under `key`; resolves once the change is written. */
  put(key: string, value: V): Promise<void> {
    this.#records.set(key, value);
    return this.#write({ op: "put", key, value });
  }

  /** Merges `fields` into the record under `key` (a missing record is left missing). */
  patch(key: string, fields: Partial<V>): Promise<void> {
    const current = this.#records.get(key);
    if (current === undefined) return Promise.resolve();
    this.#records.set(key, { ...current, ...fields });
    return this.#write({ op: "patch", key, fields: fields as Record<string, unknown> });
  }

  /** Removes the record under `key` (a missing one is fine). */
  delete(key: string): Promise<void> {
    if (!this.#records.delete(key)) return Promise.resolve();
    return this.#write({ op: "delete", key });
  }

  /** Waits for pending changes and releases the file. */
  async close(): Promise<void> {
    await this.#file?.close();
  }

  /** Closes the log and deletes its file (the records are gone for good). */
  async destroy(): Promise<void> {
    this.#records.clear();
    if (!this.#file) return;
    await this.#file.close();
    await Deno.remove(this.#file.path).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }

  #write(line: Line): Promise<void> {
    const file = this.#file;
    if (!file) return Promise.resolve();
    const written = file.append(JSON.stringify(line) + "\n");
    this.#lines++;
    if (this.#lines > this.#compactAfter && this.#lines > 4 * this.#records.size) {
      this.#lines = this.#records.size;
      const text = [...this.#records].map(([key, value]) => JSON.stringify({ op: "put", key, value }) + "\n");
      // The rewrite holds every change so far; a failure leaves the longer log, which reads the same.
      file.replace(text.join("")).catch(() => {});
    }
    return written;
  }
}

/** Applies one stored line to `records`; answers what is wrong with it, or undefined. */
function replay<V>(raw: string, records: Map<string, V>, parse: (value: unknown) => V): string | undefined {
  let line: Line;
  try {
    line = JSON.parse(raw);
  } catch {
    return "not JSON (a torn write?)";
  }
  try {
    if (typeof line !== "object" || line === null || typeof line.key !== "string") throw new Error();
    if (line.op === "put") records.set(line.key, parse(line.value));
    else if (line.op === "delete") records.delete(line.key);
    else if (line.op === "patch" && typeof line.fields === "object" && line.fields !== null) {
      const current = records.get(line.key);
      if (current !== undefined) records.set(line.key, parse({ ...current, ...line.fields }));
    } else throw new Error();
    return undefined;
  } catch {
    return "not a record of this log";
  }
}
