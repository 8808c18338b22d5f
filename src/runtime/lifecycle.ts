/**
 * Process states, the transitions between them, and `whenRunnable` (waiting until runs may
 * happen).
 *
 * | state | meaning |
 * |---|---|
 * | created | deployed, never started |
 * | starting | start in progress (config resolved, parts starting) |
 * | running | started; triggers listen and runs may happen |
 * | awaiting | started but idle: no run for `idle_timeout` seconds; the next activity wakes it to running |
 * | suspended | started but paused by an operator or governance; events are held, not run |
 * | stopping | stop in progress |
 * | stopped | stopped; nothing listens |
 * | failed | a start (or, later, repeated runs) failed; start again to recover |
 *
 * @module
 */

/** A process state. */
export type ProcessState =
  | "created"
  | "starting"
  | "running"
  | "suspended"
  | "awaiting"
  | "stopping"
  | "stopped"
  | "failed";

/** Every process state. */
export const PROCESS_STATES: readonly ProcessState[] = [
  "created",
  "starting",
  "running",
  "suspended",
  "awaiting",
  "stopping",
  "stopped",
  "failed",
];

/** Legal next states for each state. */
export const TRANSITIONS: Readonly<Record<ProcessState, readonly ProcessState[]>> = {
  created: ["starting"],
  starting: ["running", "failed", "stopping"],
  running: ["awaiting", "suspended", "stopping", "failed"],
  awaiting: ["running", "suspended", "stopping", "failed"],
  suspended: ["running", "stopping", "failed"],
  stopping: ["stopped", "failed"],
  stopped: ["starting"],
  failed: ["starting"],
};

/** States in which the process has been started and not yet stopped. */
export const STARTED_STATES: ReadonlySet<ProcessState> = new Set([
  "starting",
  "running",
  "awaiting",
  "suspended",
]);

/** One recorded transition. */
export interface StateTransition {
  /** State before. */
  from: ProcessState;
  /** State after. */
  to: ProcessState;
  /** Why it happened, in words. */
  reason: string;
  /** ISO 8601 UTC time. */
  at: string;
}

/** Called after each transition; errors are the caller's to handle (they never undo the transition). */
export type TransitionListener = (transition: StateTransition) => void;

/** Raised when a transition is not in {@linkcode TRANSITIONS}. */
export class InvalidTransitionError extends Error {
  /** State the process was in. */
  readonly from: ProcessState;
  /** State that was asked for. */
  readonly to: ProcessState;

  /** An error for the move `from` → `to`. */
  constructor(from: ProcessState, to: ProcessState) {
    super(`cannot move from ${from} to ${to}; allowed: ${TRANSITIONS[from].join(", ") || "none"}`);
    this.name = "InvalidTransitionError";
    this.from = from;
    this.to = to;
  }
}

/** Most transitions kept in {@linkcode Lifecycle.history}. */
export const HISTORY_LIMIT = 100;

/** A state holder that only moves along {@linkcode TRANSITIONS}. */
export class Lifecycle {
  #state: ProcessState;
  #history: StateTransition[] = [];
  #listeners = new Set<TransitionListener>();

  /** A lifecycle in `initial` (default `created`). */
  constructor(initial: ProcessState = "created") {
    this.#state = initial;
  }

  /** The current state. */
  get state(): ProcessState {
    return this.#state;
  }

  /** The most recent transitions, oldest first (at most {@linkcode HISTORY_LIMIT}). */
  get history(): readonly StateTransition[] {
    return this.#history;
  }

  /** Whether `to` is a legal next state. */
  canMove(to: ProcessState): boolean {
    return TRANSITIONS[this.#state].includes(to);
  }

  /** Moves to `to` and notifies listeners; throws {@linkcode InvalidTransitionError} when illegal. */
  move(to: ProcessState, reason: string): StateTransition {
    if (!this.canMove(to)) throw new InvalidTransitionError(this.#state, to);
    const transition = { from: this.#state, to, reason, at: new Date().toISOString() };
    this.#state = to;
    this.#history.push(transition);
    if (this.#history.length > HISTORY_LIMIT) this.#history.shift();
    for (const listener of this.#listeners) listener(transition);
    return transition;
  }

  /** Registers a listener; returns a function that removes it. */
  onTransition(listener: TransitionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/**
 * Resolves when runs may happen: at once when running; an awaiting process is woken (`wake`); a
 * starting or suspended one is waited for. Rejects with the signal's reason when it aborts.
 */
export function whenRunnable(lifecycle: Lifecycle, wake: () => void, signal: AbortSignal): Promise<void> {
  if (lifecycle.state === "awaiting") wake();
  if (lifecycle.state === "running") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const abort = () => {
      off();
      reject(signal.reason);
    };
    const off = lifecycle.onTransition((t) => {
      if (t.to === "awaiting") wake();
      else if (t.to === "running") {
        off();
        signal.removeEventListener("abort", abort);
        resolve();
      }
    });
    signal.addEventListener("abort", abort, { once: true });
  });
}
