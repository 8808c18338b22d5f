/**
 * The trigger contract: what wakes an agent process.
 *
 * @module
 */

import type { TriggerType } from "../runtime/mod.ts";

export type { TriggerType };

/** One firing of a trigger. */
export interface TriggerEvent {
  /** Id of the trigger that fired (stable id for config triggers). */
  trigger_id: string;
  /** Type of the trigger (`remote`-style custom types are allowed for injected events). */
  trigger_type: TriggerType | string;
  /** Unique id of this event (UUID). */
  event_id: string;
  /** ISO 8601 UTC time the event was made. */
  timestamp: string;
  /** What happened: type-specific (see spec 001's payload table). */
  payload: unknown;
  /** Facts about the event (webhook request facts; `_stop: true` on the stop sentinel). */
  metadata: Record<string, unknown>;
}

/** Metadata key marking the stop sentinel. */
export const STOP_KEY = "_stop";

/** A source of trigger events. */
export interface Trigger {
  /** Id put on every event. */
  readonly triggerId: string;
  /** Trigger type. */
  readonly type: TriggerType;
  /** Events waiting in the trigger's own queue. */
  readonly queueSize: number;
  /** Capacity of the trigger's own queue. */
  readonly queueCapacity: number;
  /** Events dropped (or refused) because the queue was full. */
  readonly dropped: number;
  /** Starts listening (binds, subscribes, schedules). Rejects when it cannot start. */
  start(): Promise<void>;
  /** Stops listening, then enqueues the stop sentinel. Stopping twice is fine. */
  stop(): Promise<void>;
  /** The next event; rejects with {@linkcode TriggerCancelledError} once the stop sentinel is reached. */
  waitForNext(): Promise<TriggerEvent>;
}

/** Raised by {@linkcode Trigger.waitForNext} when the trigger was stopped. */
export class TriggerCancelledError extends Error {
  /** Id of the stopped trigger. */
  readonly triggerId: string;

  /** An error for the trigger `triggerId`. */
  constructor(triggerId: string) {
    super(`trigger ${triggerId} was stopped`);
    this.name = "TriggerCancelledError";
    this.triggerId = triggerId;
  }
}
