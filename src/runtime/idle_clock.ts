/**
 * The activity clock of a process: when it was last active, how many runs are in flight, and the idle
 * countdown that moves a running process to `awaiting` after `idle_timeout` seconds without activity
 * (never while a run is in flight).
 *
 * @module
 */

/** Tracks activity and calls `onIdle` once the idle delay passes with nothing running. */
export class IdleClock {
  #onIdle: () => void;
  #handle: ReturnType<typeof setTimeout> | undefined;
  #busy = 0;
  #lastAt: number | undefined;

  /** A clock that calls `onIdle` when the process has been idle long enough. */
  constructor(onIdle: () => void) {
    this.#onIdle = onIdle;
  }

  /** Time of the last activity (ms since the epoch), if any. */
  get lastAt(): number | undefined {
    return this.#lastAt;
  }

  /** Runs in flight. */
  get busy(): number {
    return this.#busy;
  }

  /** Whether the idle countdown is running. */
  get armed(): boolean {
    return this.#handle !== undefined;
  }

  /** Records activity now and restarts the countdown (`idleSeconds` 0: no countdown). */
  mark(idleSeconds: number): void {
    this.#lastAt = Date.now();
    this.clear();
    if (idleSeconds <= 0 || this.#busy > 0) return;
    this.#handle = setTimeout(() => {
      this.#handle = undefined;
      if (this.#busy === 0) this.#onIdle();
    }, idleSeconds * 1000);
    Deno.unrefTimer(this.#handle);
  }

  /** A run begins: no countdown while it runs. */
  runStarted(): void {
    this.#busy++;
    this.clear();
  }

  /** A run ended: the countdown restarts when nothing else runs and `counting` is true. */
  runEnded(idleSeconds: number, counting: boolean): void {
    this.#busy--;
    if (counting) this.mark(idleSeconds);
  }

  /** Stops the countdown. */
  clear(): void {
    if (this.#handle === undefined) return;
    clearTimeout(this.#handle);
    this.#handle = undefined;
  }
}
