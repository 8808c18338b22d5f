/**
 * Durable records of API-deployed processes, so they survive a runtime restart.
 *
 * What is durable: the name, process id, deploy time, the config exactly as deployed (with `${VAR}`
 * references unresolved) and the state the operator last asked for (`running`, `suspended` or
 * `stopped`). What is not: lifecycle counters, in-flight work, queues and anything held in memory.
 *
 * @module
 */

import { join } from "node:path";
import { z } from "zod";

/** The state an operator last asked for. */
export type DesiredState = "running" | "suspended" | "stopped";

/** One stored deployment. */
export interface StoredProcess {
  /** Process name. */
  name: string;
  /** Process id, kept across restarts. */
  process_id: string;
  /** Deploy time, epoch seconds. */
  created_at: number;
  /** The config object exactly as deployed. */
  config: Record<string, unknown>;
  /** What to bring it back to. */
  desired_state: DesiredState;
}

/** Where stored deployments live. A saved record is owned by the store: do not change it afterwards. */
export interface ProcessStore {
  /** Every stored deployment, sorted by name; unreadable records are reported, not returned. */
  list(): Promise<{ records: StoredProcess[]; problems: string[] }>;
  /** Creates or replaces a record. */
  save(record: StoredProcess): Promise<void>;
  /** Removes a record; removing a missing one is fine. */
  remove(name: string): Promise<void>;
  /** Releases resources (open files). */
  close?(): void;
}

const StoredProcessSchema = z.strictObject({
  name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/),
  process_id: z.string().min(1),
  created_at: z.number(),
  config: z.record(z.string(), z.unknown()),
  desired_state: z.enum(["running", "suspended", "stopped"]),
});

/** Keeps records in memory (nothing survives the process). */
export class MemoryProcessStore implements ProcessStore {
  #records = new Map<string, StoredProcess>();

  list(): Promise<{ records: StoredProcess[]; problems: string[] }> {
    const records = [...this.#records.values()].sort((a, b) => a.name.localeCompare(b.name));
    return Promise.resolve({ records: structuredClone(records), problems: [] });
  }

  save(record: StoredProcess): Promise<void> {
    this.#records.set(record.name, structuredClone(record));
    return Promise.resolve();
  }

  remove(name: string): Promise<void> {
    this.#records.delete(name);
    return Promise.resolve();
  }
}

/** File name of the store's log inside its directory. */
export const STORE_FILE = "processes.jsonl";

/** Compaction runs when the log holds more than this many lines and 4 times the live records. */
const COMPACT_AFTER_LINES = 1000;

type LogLine = { op: "save"; record: StoredProcess } | { op: "remove"; name: string };

/**
 * A log-structured store: `<dir>/processes.jsonl`, one JSON line per change (`save` or `remove`) appended
 * through an open descriptor, so a deploy costs one `write`. Reading replays the log; a torn last line
 * (a crash mid-write) is skipped and reported. When the log grows past four times its live records it is
 * rewritten atomically (temporary file, then rename). Files are mode 0600 because configs may hold
 * literal secret values. One runtime at a time may use a directory.
 */
export class FileProcessStore implements ProcessStore {
  /** Directory holding the log. */
  readonly dir: string;
  #path: string;
  #live: Map<string, StoredProcess> | undefined;
  #problems: string[] = [];
  #lines = 0;
  #file: Deno.FsFile | undefined;
  #needsNewline = false;

  /** A store in `dir` (created on the first save). */
  constructor(dir: string) {
    this.dir = dir;
    this.#path = join(dir, STORE_FILE);
  }

  list(): Promise<{ records: StoredProcess[]; problems: string[] }> {
    try {
      const live = this.#load();
      const records = [...live.values()].sort((a, b) => a.name.localeCompare(b.name));
      return Promise.resolve({ records: structuredClone(records), problems: [...this.#problems] });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  save(record: StoredProcess): Promise<void> {
    return this.#change({ op: "save", record }, (live) => live.set(record.name, record));
  }

  remove(name: string): Promise<void> {
    return this.#change({ op: "remove", name }, (live) => live.delete(name));
  }

  /** Releases the open descriptor (the next change opens it again). */
  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }

  #change(line: LogLine, apply: (live: Map<string, StoredProcess>) => void): Promise<void> {
    try {
      const live = this.#load();
      if (line.op === "remove" && !live.has(line.name)) return Promise.resolve();
      this.#append(JSON.stringify(line) + "\n");
      apply(live);
      if (this.#lines > COMPACT_AFTER_LINES && this.#lines > 4 * live.size) this.#compact(live);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #load(): Map<string, StoredProcess> {
    if (this.#live) return this.#live;
    const live = new Map<string, StoredProcess>();
    let text = "";
    try {
      text = Deno.readTextFileSync(this.#path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    const lines = text.split("\n");
    const last = lines.pop();
    if (last) this.#needsNewline = true;
    if (last) lines.push(last);
    lines.forEach((raw, index) => {
      if (raw.trim() === "") return;
      this.#lines++;
      try {
        const line = JSON.parse(raw) as LogLine;
        if (line.op === "remove" && typeof line.name === "string") live.delete(line.name);
        else if (line.op === "save") {
          const record = StoredProcessSchema.parse(line.record);
          live.set(record.name, record);
        } else throw new Error("unknown operation");
      } catch (error) {
        const reason = error instanceof SyntaxError ? "not JSON (a torn write?)" : "not a store record";
        this.#problems.push(`${STORE_FILE} line ${index + 1}: ${reason}`);
      }
    });
    this.#live = live;
    return live;
  }

  #append(text: string): void {
    if (!this.#file) {
      Deno.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.#file = Deno.openSync(this.#path, { append: true, create: true, mode: 0o600 });
    }
    if (this.#needsNewline) {
      text = "\n" + text;
      this.#needsNewline = false;
    }
    writeAll(this.#file, new TextEncoder().encode(text));
    this.#lines++;
  }

  #compact(live: Map<string, StoredProcess>): void {
    const temporary = `${this.#path}.tmp`;
    const text = [...live.values()].map((record) => JSON.stringify({ op: "save", record }) + "\n").join("");
    Deno.writeTextFileSync(temporary, text, { mode: 0o600 });
    this.close();
    Deno.renameSync(temporary, this.#path);
    this.#lines = live.size;
  }
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
}
