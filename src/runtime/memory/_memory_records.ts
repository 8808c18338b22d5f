/**
 * The records and index both memory stores share.
 *
 * @module
 */

import { LexicalIndex } from "./lexical_index.ts";
import type { MemoryMatch, MemorySearchOptions } from "./memory_store.ts";

/** Default and bounds of a search. */
export const SEARCH_DEFAULTS = { limit: 5, minScore: 0 } as const;

/** One stored memory. */
export interface MemoryRecord {
  /** Id. */
  id: string;
  /** Text. */
  text: string;
  /** JSON metadata. */
  metadata: Record<string, unknown>;
}

/** Checks `add` arguments; throws a TypeError for an empty text or metadata that is not a JSON object. */
export function checkMemory(text: unknown, metadata: unknown): void {
  if (typeof text !== "string" || text.trim() === "") throw new TypeError("a memory needs a non-empty text");
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new TypeError("memory metadata must be a JSON object");
  }
}

/** `fn()` as a promise: its value, or a rejection with what it threw. */
export function attempt<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Memories in insertion order with their lexical index. */
export class MemoryRecords {
  #records = new Map<string, MemoryRecord & { seq: number }>();
  #index = new LexicalIndex();
  #seq = 0;

  /** Number of memories. */
  get size(): number {
    return this.#records.size;
  }

  /** Every memory, oldest first. */
  all(): MemoryRecord[] {
    return [...this.#records.values()].map(({ id, text, metadata }) => ({ id, text, metadata }));
  }

  /** Stores a record (a copy). */
  insert(record: MemoryRecord): void {
    this.#records.delete(record.id);
    this.#records.set(record.id, { ...structuredClone(record), seq: this.#seq++ });
    this.#index.add(record.id, record.text);
  }

  /** Forgets a record; answers whether it existed. */
  remove(id: string): boolean {
    this.#index.remove(id);
    return this.#records.delete(id);
  }

  /** Best matches first (ties: newest first); throws a RangeError for a bad limit or minScore. */
  search(query: string, options: MemorySearchOptions = {}): MemoryMatch[] {
    const { limit = SEARCH_DEFAULTS.limit, minScore = SEARCH_DEFAULTS.minScore } = options;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError("limit must be an integer >= 1");
    if (!(minScore >= 0 && minScore <= 1)) throw new RangeError("minScore must be a number from 0 to 1");
    const hits: Array<MemoryMatch & { seq: number }> = [];
    for (const [id, score] of this.#index.score(query)) {
      const record = this.#records.get(id);
      if (!record || score < minScore) continue;
      hits.push({
        id,
        text: record.text,
        score,
        metadata: structuredClone(record.metadata),
        seq: record.seq,
      });
    }
    hits.sort((a, b) => b.score - a.score || b.seq - a.seq);
    return hits.slice(0, limit).map(({ seq: _seq, ...match }) => match);
  }
}
