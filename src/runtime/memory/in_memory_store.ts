/**
 * InMemoryStore: long-term memory kept in process memory, gone when the store closes.
 *
 * @module
 */

import { uuid } from "../../_util/ids.ts";
import { attempt, checkMemory, MemoryRecords } from "./_memory_records.ts";
import type { MemoryMatch, MemorySearchOptions, MemoryStore } from "./memory_store.ts";

/**
 * Memory held in process memory (the `in_memory` provider), scored as {@linkcode LexicalIndex} describes.
 *
 * @example
 * ```ts
 * import { InMemoryStore } from "./in_memory_store.ts";
 * const memory = new InMemoryStore();
 * await memory.add("The deploy window is Tuesday morning.");
 * console.log((await memory.search("when is the deploy window?"))[0].text);
 * await memory.close();
 * ```
 */
export class InMemoryStore implements MemoryStore {
  #records = new MemoryRecords();
  #closed = false;

  /** Stores `text`; throws a TypeError for an empty text or metadata that is not an object. */
  add(text: string, metadata: Record<string, unknown> = {}): Promise<string> {
    return attempt(() => {
      this.#open();
      checkMemory(text, metadata);
      const id = uuid();
      this.#records.insert({ id, text, metadata });
      return id;
    });
  }

  /** The best matches for `query`. */
  search(query: string, options?: MemorySearchOptions): Promise<MemoryMatch[]> {
    return attempt(() => {
      this.#open();
      return this.#records.search(query, options);
    });
  }

  /** Forgets `id`. */
  delete(id: string): Promise<boolean> {
    return attempt(() => {
      this.#open();
      return this.#records.remove(id);
    });
  }

  /** Number of memories. */
  size(): number {
    return this.#records.size;
  }

  /** Forgets everything; later calls reject. */
  close(): Promise<void> {
    this.#closed = true;
    this.#records = new MemoryRecords();
    return Promise.resolve();
  }

  #open(): void {
    if (this.#closed) throw new Error("the memory store is closed");
  }
}
