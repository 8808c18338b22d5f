/**
 * OperationQueue: runs a process's lifecycle operations one at a time, and refuses them once the process
 * is removed.
 *
 * @module
 */

import { RuntimeError } from "./errors.ts";

/** Runs operations one after another; after {@linkcode OperationQueue.close} only closing ones run. */
export class OperationQueue {
  #name: string;
  #ops: Promise<unknown> = Promise.resolve();
  #closed = false;

  /** A queue for the process `name` (named in the refusal once removed). */
  constructor(name: string) {
    this.#name = name;
  }

  /** Refuses every operation queued from now on, and those still queued, except closing ones. */
  close(): void {
    this.#closed = true;
  }

  /** Runs `operation` after those queued before it (whether they failed or not). */
  run<T>(operation: () => Promise<T>, closing = false): Promise<T> {
    const run = () => this.#closed && !closing ? Promise.reject(removedError(this.#name)) : operation();
    const next = this.#ops.then(run, run);
    this.#ops = next.catch(() => undefined);
    return next;
  }
}

function removedError(name: string): RuntimeError {
  return new RuntimeError("PROCESS_NOT_FOUND", `process ${name} was removed`, { details: { process: name } });
}
