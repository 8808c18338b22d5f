/**
 * Base of triggers that listen through a subscription (event bus, message broker): subscribe on start,
 * unsubscribe on stop.
 *
 * @module
 */

import { TriggerBase } from "./trigger_base.ts";

/**
 * A trigger whose source is a subscription; subclasses say how to subscribe. Not published.
 *
 * @internal
 */
export abstract class SubscriptionTrigger extends TriggerBase {
  #unsubscribe: (() => void) | undefined;

  /** Subscribes; returns the function that unsubscribes. */
  protected abstract subscribe(): () => void;

  /** Subscribes. */
  protected listen(): Promise<void> {
    this.#unsubscribe = this.subscribe();
    return Promise.resolve();
  }

  /** Unsubscribes. */
  protected unlisten(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    return Promise.resolve();
  }
}
