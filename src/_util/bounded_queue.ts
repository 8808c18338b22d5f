/**
 * A bounded FIFO queue with non-blocking offers, waiting puts and waiting takes.
 *
 * @module
 */

/** Raised by waiting calls whose signal aborted. */
export class QueueAbortedError extends Error {
  constructor() {
    super("the wait was aborted");
    this.name = "QueueAbortedError";
  }
}

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** A FIFO queue holding at most `capacity` items (plus items added with {@linkcode BoundedQueue.force}). */
export class BoundedQueue<T> {
  /** Most items held (forced items may exceed it). */
  readonly capacity: number;
  #items: T[] = [];
  #head = 0;
  #takers: Waiter<T>[] = [];
  #putters: Array<Waiter<void> & { item: T }> = [];

  /** A queue of `capacity` (an integer >= 1). */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("capacity must be an integer >= 1");
    this.capacity = capacity;
  }

  /** Items waiting. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  /** Adds an item when there is room (or a taker waiting); never waits. */
  offer(item: T): boolean {
    const taker = this.#takers.shift();
    if (taker) {
      taker.resolve(item);
      return true;
    }
    if (this.size >= this.capacity) return false;
    this.#items.push(item);
    return true;
  }

  /** Adds an item even when full (stop sentinels, retries). */
  force(item: T): void {
    if (!this.offer(item)) this.#items.push(item);
  }

  /** Adds an item, waiting for room; rejects with {@linkcode QueueAbortedError} when `signal` aborts. */
  put(item: T, signal?: AbortSignal): Promise<void> {
    if (this.offer(item)) return Promise.resolve();
    return this.#wait(this.#putters, signal, (waiter) => ({ ...waiter, item }));
  }

  /** The oldest item, waiting for one; rejects with {@linkcode QueueAbortedError} when `signal` aborts. */
  take(signal?: AbortSignal): Promise<T> {
    if (this.size > 0) {
      const item = this.#items[this.#head];
      this.#items[this.#head] = undefined as T;
      this.#head++;
      if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      this.#admitPutter();
      return Promise.resolve(item);
    }
    return this.#wait(this.#takers, signal, (waiter) => waiter);
  }

  /** Removes and returns every waiting item. */
  drain(): T[] {
    const items = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    while (this.#putters.length > 0 && this.size < this.capacity) this.#admitPutter();
    return items;
  }

  #admitPutter(): void {
    const putter = this.#putters.shift();
    if (!putter) return;
    this.#items.push(putter.item);
    putter.resolve();
  }

  #wait<R, W extends Waiter<R>>(
    list: W[],
    signal: AbortSignal | undefined,
    make: (w: Waiter<R>) => W,
  ): Promise<R> {
    if (signal?.aborted) return Promise.reject(new QueueAbortedError());
    return new Promise<R>((resolve, reject) => {
      const onAbort = () => {
        const index = list.indexOf(waiter);
        if (index !== -1) list.splice(index, 1);
        reject(new QueueAbortedError());
      };
      const waiter = make({
        resolve: (value: R) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        },
        reject,
      });
      list.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}
