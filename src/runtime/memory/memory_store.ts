/**
 * The long-term memory contract: texts an agent stores, searches by relevance and forgets.
 *
 * @module
 */

/** One search hit. */
export interface MemoryMatch {
  /** Id given by {@linkcode MemoryStore.add}. */
  id: string;
  /** The stored text. */
  text: string;
  /** Relevance from 0 (nothing shared) to 1 (same terms, same weights). */
  score: number;
  /** Metadata stored with the text. */
  metadata: Record<string, unknown>;
}

/** Options of {@linkcode MemoryStore.search}. */
export interface MemorySearchOptions {
  /** Most hits answered. @default 5 */
  limit?: number;
  /** Least score of a hit, from 0 to 1; hits scoring 0 are never answered. @default 0 */
  minScore?: number;
}

/** Long-term memory of one process. */
export interface MemoryStore {
  /** Stores `text` (non-empty) with optional JSON metadata; resolves its id. */
  add(text: string, metadata?: Record<string, unknown>): Promise<string>;
  /** The stored texts most relevant to `query`, best first (ties: newest first). */
  search(query: string, options?: MemorySearchOptions): Promise<MemoryMatch[]>;
  /** Forgets a memory; resolves whether it existed. */
  delete(id: string): Promise<boolean>;
  /** Number of stored memories. */
  size(): number;
  /** Releases the store; later calls reject. */
  close(): Promise<void>;
}
