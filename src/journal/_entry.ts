/**
 * Helpers shared by the journal backends: entry creation, validation and read options.
 *
 * @module
 */

import { uuid } from "../_util/ids.ts";
import type { JournalBackend, JournalEntry, JournalReadOptions } from "./types.ts";

/** A new entry with a fresh id and timestamp and a JSON round-trip copy of `data`. */
export function createEntry(process: string, entryType: string, data: Record<string, unknown>): JournalEntry {
  if (typeof process !== "string" || process === "") {
    throw new TypeError("journal process name must be a non-empty string");
  }
  if (typeof entryType !== "string" || entryType === "") {
    throw new TypeError("journal entry type must be a non-empty string");
  }
  if (!isRecord(data)) throw new TypeError("journal entry data must be a JSON object");
  const copy: Record<string, unknown> = JSON.parse(JSON.stringify(data));
  return {
    entry_id: uuid(),
    process,
    entry_type: entryType,
    timestamp: new Date().toISOString(),
    data: copy,
  };
}

/** A deep copy of an entry, so callers cannot change stored state. */
export function copyEntry(entry: JournalEntry): JournalEntry {
  return structuredClone(entry);
}

/** Throws a RangeError unless `options.limit` is absent or a positive integer (a TypeError for a bad `stopAt`). */
export function checkReadOptions(options: JournalReadOptions): void {
  const { limit, stopAt } = options;
  if (stopAt !== undefined && typeof stopAt !== "function") throw new TypeError("stopAt must be a function");
  if (limit === undefined) return;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`journal read limit must be a positive integer, got ${String(limit)}`);
  }
}

/** The error every call on a closed journal rejects with. */
export function closedError(backend: JournalBackend): Error {
  return new Error(`${backend} journal is closed`);
}

/**
 * Filters by type, keeps the entries from the newest one `stopAt` accepts on, then the newest `limit` of
 * them (`entries` are chronologically ordered).
 */
export function selectEntries(entries: readonly JournalEntry[], options: JournalReadOptions): JournalEntry[] {
  let matching = options.type === undefined ? entries : entries.filter((e) => e.entry_type === options.type);
  const { stopAt } = options;
  if (stopAt !== undefined) {
    const at = matching.findLastIndex((entry) => stopAt(entry));
    if (at > 0) matching = matching.slice(at);
  }
  const newest = options.limit === undefined ? matching : matching.slice(-options.limit);
  return newest.map(copyEntry);
}

/** `value` as a journal entry when it has the entry shape, else undefined. */
export function parseEntry(value: unknown): JournalEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { entry_id, process, entry_type, timestamp, data } = value;
  if (
    typeof entry_id !== "string" || typeof process !== "string" || typeof entry_type !== "string" ||
    typeof timestamp !== "string" || !isRecord(data)
  ) return undefined;
  return { entry_id, process, entry_type, timestamp, data };
}

/** Runs `fn` now and returns its result as a promise, turning a throw into a rejection. */
export function attempt<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
