/**
 * The callers of `ask` waiting on one question: each ends once, with the answer, a timeout, or an error
 * (the question was removed), and leaves no timer or listener behind.
 *
 * @module
 */

import type { AskAnswer } from "./inbox_types.ts";

/** Callers waiting on one question. */
export class Waiters {
  #ends = new Set<{ answer(answer: AskAnswer): void; fail(error: unknown): void }>();

  /** Whether anyone waits. */
  get size(): number {
    return this.#ends.size;
  }

  /**
   * Waits up to `ms` for {@linkcode Waiters.answer} or {@linkcode Waiters.fail}; then answers `onTimeout()`.
   * An abort of `signal` rejects with its reason.
   */
  wait(ms: number, onTimeout: () => AskAnswer, signal?: AbortSignal): Promise<AskAnswer> {
    return new Promise<AskAnswer>((resolve, reject) => {
      const end = {
        answer: (answer: AskAnswer) => done(() => resolve(answer)),
        fail: (error: unknown) => done(() => reject(error)),
      };
      const onAbort = () => end.fail(signal?.reason);
      const timer = setTimeout(() => end.answer(onTimeout()), Math.max(0, ms));
      const done = (finish: () => void) => {
        if (!this.#ends.delete(end)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        finish();
      };
      this.#ends.add(end);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Ends every wait with `answer`. */
  answer(answer: AskAnswer): void {
    for (const end of [...this.#ends]) end.answer(answer);
  }

  /** Ends every wait with `error`. */
  fail(error: unknown): void {
    for (const end of [...this.#ends]) end.fail(error);
  }
}
