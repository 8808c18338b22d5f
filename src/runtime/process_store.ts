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
import { AppendFile } from "../_util/append_file.ts";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../_util/json_depth.ts";

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
  /** Waits for pending writes and releases resources (open files). */
  close?(): void | Promise<void>;
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

/** A stored config nesting deeper than the API accepts. */
class TooDeep extends Error {}

type LogLine = { op: "save"; record: StoredProcess } | { op: "remove"; name: string };

/** Options for {@linkcode FileProcessStore}. */
export interface FileProcessStoreOptions {
  /** `fdatasync` every change before it resolves (group commit), so it survives a power loss. @default false */
  sync?: boolean;
}

/**
 * A log-structured store: `<dir>/processes.jsonl`, one JSON line per change (`{op:"save",record}` or
 * `{op:"remove",name}`) appended through one open descriptor ({@linkcode AppendFile}: changes made while
 * a write is under way go out together, with `sync` under one `fdatasync`). A change resolves once it is
 * written (and synced). Reading replays the log; a torn last line (a crash mid-write) is skipped and
 * reported, and the next change starts on a fresh line. A config nesting deeper than the API accepts (64
 * levels, stored by an older version) is skipped and reported too, as copying it would overflow the stack. When the log grows past four times its live
 * records it is rewritten atomically ({@linkcode AppendFile.replace}). Files are mode 0600 because configs
 * may hold literal secret values. One runtime at a time may use a directory.
 */
export class FileProcessStore implements ProcessStore {
  /** Directory holding the log. */
  readonly dir: string;
  #file: AppendFile;
  #live: Map<string, StoredProcess> | undefined;
  #problems: string[] = [];
  #lines = 0;

  /** A store in `dir` (created on the first save). */
  constructor(dir: string, options: FileProcessStoreOptions = {}) {
    this.dir = dir;
    this.#file = new AppendFile(join(dir, STORE_FILE), { sync: options.sync ?? false });
  }

  /** Whether changes are synced to disk before they resolve. */
  get sync(): boolean {
    return this.#file.sync;
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

  /** Waits for pending writes and closes the file; later changes reject. */
  close(): Promise<void> {
    return this.#file.close();
  }

  /**
   * Applies the change in memory now (so changes apply in call order) and resolves once its line is
   * written. When the write fails the memory copy is dropped: the next call reads the log again.
   */
  async #change(line: LogLine, apply: (live: Map<string, StoredProcess>) => void): Promise<void> {
    const live = this.#load();
    if (line.op === "remove" && !live.has(line.name)) return;
    const written = this.#file.append(JSON.stringify(line) + "\n");
    apply(live);
    this.#lines++;
    if (this.#lines > COMPACT_AFTER_LINES && this.#lines > 4 * live.size) this.#compact(live);
    try {
      await written;
    } catch (error) {
      if (this.#live === live) this.#live = undefined;
      throw error;
    }
  }

  #load(): Map<string, StoredProcess> {
    if (this.#live) return this.#live;
    const live = new Map<string, StoredProcess>();
    this.#problems = [];
    this.#lines = 0;
    let text = "";
    try {
      text = Deno.readTextFileSync(this.#file.path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    text.split("\n").forEach((raw, index) => {
      if (raw.trim() === "") return;
      this.#lines++;
      try {
        const line = JSON.parse(raw) as LogLine;
        if (line.op === "remove" && typeof line.name === "string") live.delete(line.name);
        else if (line.op === "save") {
          const record = StoredProcessSchema.parse(line.record);
          // The API refuses such configs; an older version stored them, and copying one overflows the stack.
          if (nestedDeeperThan(record.config, MAX_JSON_DEPTH)) throw new TooDeep();
          live.set(record.name, record);
        } else throw new Error("unknown operation");
      } catch (error) {
        const reason = error instanceof SyntaxError
          ? "not JSON (a torn write?)"
          : error instanceof TooDeep
          ? `nested deeper than ${MAX_JSON_DEPTH} levels`
          : "not a store record";
        this.#problems.push(`${STORE_FILE} line ${index + 1}: ${reason}`);
      }
    });
    this.#live = live;
    return live;
  }

  /** Rewrites the log with the live records, after every change made so far; a failure keeps the old log. */
  #compact(live: Map<string, StoredProcess>): void {
    const text = [...live.values()].map((record) => JSON.stringify({ op: "save", record }) + "\n").join("");
    const lines = live.size;
    this.#lines = lines;
    this.#file.replace(text).catch(() => {
      // The old log is intact (the new one is renamed over it only once written): compact again later.
      this.#lines += COMPACT_AFTER_LINES;
    });
  }
}
