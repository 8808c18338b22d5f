/**
 * A restartable one-shot timer used to move an idle process to `awaiting`.
 *
 * @module
 */

/** Calls `onIdle` once when {@linkcode IdleTimer.arm} was not called again within the delay. */
export class IdleTimer {
  #onIdle: () => void;
  #handle: ReturnType<typeof setTimeout> | undefined;

  constructor(onIdle: () => void) {
    this.#onIdle = onIdle;
  }

  /** Whether a countdown is running. */
  get armed(): boolean {
    return this.#handle !== undefined;
  }

  /** (Re)starts the countdown. */
  arm(delayMs: number): void {
    this.clear();
    this.#handle = setTimeout(() => {
      this.#handle = undefined;
      this.#onIdle();
    }, delayMs);
    Deno.unrefTimer(this.#handle);
  }

  /** Cancels the countdown. */
  clear(): void {
    if (this.#handle === undefined) return;
    clearTimeout(this.#handle);
    this.#handle = undefined;
  }
}
