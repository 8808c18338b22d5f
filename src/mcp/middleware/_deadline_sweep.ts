/**
 * Deadlines behind one timer: the timer is set for the earliest pending deadline, so calls that end in
 * time (nearly all) add and remove an entry instead of setting and clearing a timer each. No timer is
 * left once nothing is pending.
 *
 * @module
 */

/** A pending deadline: `fire` runs once `Date.now()` reaches `deadline` unless it was removed first. */
export interface Deadline {
  /** Epoch milliseconds. */
  readonly deadline: number;
  /** Runs when the deadline passes. */
  readonly fire: () => void;
}

/** Pending deadlines and the one timer that fires them. */
export class DeadlineSweep {
  #pending = new Set<Deadline>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedAt = Infinity;
  // The setTimeout the timer was set with: a new one (fake timers installed or removed) sets it again.
  #armedWith: typeof setTimeout | undefined;

  /** Deadlines pending. */
  get size(): number {
    return this.#pending.size;
  }

  /** Adds `entry`; the timer moves earlier when its deadline is the earliest. */
  add(entry: Deadline): void {
    this.#pending.add(entry);
    if (entry.deadline < this.#armedAt || globalThis.setTimeout !== this.#armedWith) this.#arm();
  }

  /** Removes `entry` (its call ended); the timer is cleared when nothing is pending. */
  remove(entry: Deadline): void {
    if (!this.#pending.delete(entry) || this.#pending.size > 0) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Infinity;
  }

  /** Sets the timer for the earliest pending deadline. */
  #arm(): void {
    let earliest = Infinity;
    for (const entry of this.#pending) if (entry.deadline < earliest) earliest = entry.deadline;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = earliest;
    if (earliest === Infinity) return;
    this.#armedWith = globalThis.setTimeout;
    this.#timer = setTimeout(() => this.#sweep(), Math.max(0, earliest - Date.now()));
  }

  #sweep(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    const now = Date.now();
    const due: Deadline[] = [];
    for (const entry of this.#pending) if (entry.deadline <= now) due.push(entry);
    for (const entry of due) this.#pending.delete(entry);
    // Entries a fire adds set the timer themselves; the rest are covered by the one set after.
    for (const entry of due) entry.fire();
    if (this.#timer === undefined) this.#arm();
  }
}
