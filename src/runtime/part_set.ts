/**
 * The parts of one process start: started in order, stopped in reverse, with their transition
 * subscriptions dropped when they stop.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import { describeError } from "../_util/errors.ts";
import type { PartContext, ProcessPart, ProcessPartFactory } from "./process_parts.ts";

/** The parts running for the current start of a process. */
export class PartSet {
  #parts: ProcessPart[] = [];
  #subscriptions = new Set<() => void>();
  #logger: Logger;
  #process: string;

  constructor(process: string, logger: Logger) {
    this.#process = process;
    this.#logger = logger;
  }

  /** Builds and starts a part per factory, in order; a rejection leaves the started ones for {@linkcode stopAll}. */
  async startAll(factories: readonly ProcessPartFactory[], context: PartContext): Promise<void> {
    for (const factory of factories) {
      const part = factory(context);
      if (!part) continue;
      this.#parts.push(part);
      await part.start();
    }
  }

  /** Keeps an unsubscribe function until the parts stop. */
  track(unsubscribe: () => void): () => void {
    this.#subscriptions.add(unsubscribe);
    return () => {
      unsubscribe();
      this.#subscriptions.delete(unsubscribe);
    };
  }

  /** Stops every part in reverse order; failures are logged and the stop goes on. */
  async stopAll(): Promise<void> {
    for (const unsubscribe of this.#subscriptions) unsubscribe();
    this.#subscriptions.clear();
    const parts = this.#parts.reverse();
    this.#parts = [];
    for (const part of parts) {
      try {
        await part.stop();
      } catch (error) {
        this.#logger.warning("process part failed to stop", {
          process: this.#process,
          part: part.name,
          error: describeError(error),
        });
      }
    }
  }

  /** The part with this name. */
  find(name: string): ProcessPart | undefined {
    return this.#parts.find((part) => part.name === name);
  }

  /** Status objects of the parts that report one, by part name. */
  statuses(): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const part of this.#parts) if (part.status) out[part.name] = part.status();
    return out;
  }
}
