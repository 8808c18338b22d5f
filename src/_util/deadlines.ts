/**
 * Deadlines without a timer per waiter: one sweep timer runs while deadlines are pending and settles the
 * expired ones, so hot paths (request bodies) pay a Set insert and delete instead of a timer. The timer
 * stops at the first sweep that finds nothing pending (not at every removal, which under steady traffic
 * would start and stop it once per request).
 *
 * @module
 */

interface Pending {
  at: number;
  expire: () => void;
}

/** A group of deadlines checked every `resolutionMs`. */
export class Deadlines {
  #pending = new Set<Pending>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #resolutionMs: number;

  /** Deadlines checked every `resolutionMs` (so they fire up to that much late). */
  constructor(resolutionMs = 250) {
    this.#resolutionMs = resolutionMs;
  }

  /** Pending deadlines. */
  get size(): number {
    return this.#pending.size;
  }

  /**
   * Races `work` against a deadline `ms` from now: resolves `work`'s result, or `onExpired()`'s when the
   * deadline passes first.
   */
  race<T, E>(work: Promise<T>, ms: number, onExpired: () => E): Promise<T | E> {
    return new Promise<T | E>((resolve, reject) => {
      const entry: Pending = {
        at: Date.now() + ms,
        expire: () => resolve(onExpired()),
      };
      this.#add(entry);
      work.then(
        (value) => {
          this.#remove(entry);
          resolve(value);
        },
        (error) => {
          this.#remove(entry);
          reject(error);
        },
      );
    });
  }

  #add(entry: Pending): void {
    this.#pending.add(entry);
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.#sweep(), this.#resolutionMs);
  }

  #remove(entry: Pending): void {
    this.#pending.delete(entry);
  }

  #sweep(): void {
    if (this.#pending.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const now = Date.now();
    for (const entry of this.#pending) {
      if (entry.at > now) continue;
      this.#remove(entry);
      entry.expire();
    }
  }
}
