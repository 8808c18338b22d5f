/**
 * {@linkcode Spool}: where a runtime keeps what it has acknowledged but not finished, per process: queued
 * trigger events and dead letters (`events`), inbox messages (`inbox`), context state (`context`). Each is a
 * {@linkcode RecordLog}
 * under `<dir>/<process>/<kind>.jsonl`. A spool without a directory keeps them in memory (library use and
 * tests); `agentry runtime start` uses `<data-dir>/queues`. See docs/durability.md for the promise.
 *
 * @module
 */

import { join } from "node:path";
import type { Logger } from "../log.ts";
import { type OpenedRecordLog, RecordLog } from "../_util/record_log.ts";

/** What a process keeps in its spool. */
export type SpoolKind = "events" | "inbox" | "context";

/** Options of {@linkcode ProcessSpool.open}. */
export interface SpoolLogOptions {
  /** Compaction runs past this many lines (see {@linkcode RecordLog.open}). @default 1000 */
  compactAfter?: number;
}

/** Options for {@linkcode Spool}. */
export interface SpoolOptions {
  /** Directory of the process folders. @default none: nothing is written */
  dir?: string;
  /** Wait for `fdatasync` before a change counts as written (survives a power loss). @default false */
  sync?: boolean;
  /** Receives a warning per log with unreadable lines. */
  logger?: Logger;
}

/** One log of a process's spool: a durable map whose changes resolve once written (see docs/durability.md). */
export interface SpoolLog<V> {
  /** Live records. */
  readonly size: number;
  /** The record under `key`. */
  get(key: string): V | undefined;
  /** Whether a record is under `key`. */
  has(key: string): boolean;
  /** Live records in the order they were first put. */
  values(): V[];
  /** Sets the record under `key`; resolves once written. */
  put(key: string, value: V): Promise<void>;
  /** Merges `fields` into the record under `key` (a missing record stays missing). */
  patch(key: string, fields: Partial<V>): Promise<void>;
  /** Removes the record under `key`. */
  delete(key: string): Promise<void>;
  /** Waits for pending changes and releases the file. */
  close(): Promise<void>;
}

/** The spool of one process (see {@linkcode Spool.forProcess}). */
export interface ProcessSpool {
  /** Opens (and reads) one of the process's logs; `parse` checks each stored value. */
  open<V>(kind: SpoolKind, parse: (value: unknown) => V, options?: SpoolLogOptions): Promise<SpoolLog<V>>;
  /** Waits for pending writes and closes the logs opened through this handle (their files stay). */
  close(): Promise<void>;
}

/** The logs of every process of a runtime. */
export class Spool {
  #options: SpoolOptions;
  #handles = new Map<string, { logs: RecordLog<unknown>[]; handle: ProcessSpool }>();
  /** Process folders present when the spool was first used (others are new: nothing to read). */
  #existing: Promise<Set<string>> | undefined;

  /** A spool in `options.dir` (created on the first write), or in memory. */
  constructor(options: SpoolOptions = {}) {
    this.#options = options;
  }

  /** Whether logs are written to disk. */
  get durable(): boolean {
    return this.#options.dir !== undefined;
  }

  /** A handle on the logs of `process` (a valid process name: it becomes a directory name). */
  forProcess(process: string): ProcessSpool {
    const logs: RecordLog<unknown>[] = [];
    const entry = {
      logs,
      handle: {
        open: async <V>(kind: SpoolKind, parse: (value: unknown) => V, options: SpoolLogOptions = {}) => {
          const log = await this.#openLog(process, kind, { parse, compactAfter: options.compactAfter });
          logs.push(log as RecordLog<unknown>);
          return log;
        },
        close: async () => {
          if (this.#handles.get(process) === entry) this.#handles.delete(process);
          await Promise.all(logs.map((log) => log.close()));
        },
      },
    };
    this.#handles.set(process, entry);
    return entry.handle;
  }

  /** Deletes the logs of a removed process (closing the open ones). */
  async remove(process: string): Promise<void> {
    const entry = this.#handles.get(process);
    this.#handles.delete(process);
    (await this.#folders()).delete(process);
    await Promise.all(entry?.logs.map((log) => log.destroy()) ?? []);
    if (this.#options.dir === undefined) return;
    await Deno.remove(join(this.#options.dir, process), { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }

  /** Waits for pending writes and closes every log. */
  async close(): Promise<void> {
    await Promise.all([...this.#handles.values()].map((entry) => entry.handle.close()));
  }

  /** The process folders in the spool directory, read once. */
  #folders(): Promise<Set<string>> {
    return this.#existing ??= (async () => {
      const names = new Set<string>();
      if (this.#options.dir === undefined) return names;
      try {
        for await (const entry of Deno.readDir(this.#options.dir)) {
          if (entry.isDirectory) names.add(entry.name);
        }
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
      return names;
    })();
  }

  async #openLog<V>(
    process: string,
    kind: SpoolKind,
    options: { parse: (value: unknown) => V; compactAfter?: number },
  ): Promise<RecordLog<V>> {
    const { dir, sync, logger } = this.#options;
    const path = dir === undefined ? undefined : join(dir, process, `${kind}.jsonl`);
    // A process without a folder has nothing to read back (a new name): skip the read of a missing file.
    const folders = await this.#folders();
    const fresh = !folders.has(process);
    const opened: OpenedRecordLog<V> = await RecordLog.open({ path, sync, fresh, ...options });
    folders.add(process); // its logs may write from now on: a later handle on this name reads them
    if (opened.problems.length > 0) {
      logger?.warning("spool log has unreadable lines; they are skipped", {
        process,
        path,
        problems: opened.problems.slice(0, 10),
        count: opened.problems.length,
      });
    }
    return opened.log;
  }
}
