/**
 * A trigger fired by events of one type on an {@linkcode EventBus}.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import type { BusEvent, EventBus } from "./event_bus.ts";
import { SubscriptionTrigger } from "./subscription_trigger.ts";

/** Queue capacity of an event trigger unless set. */
export const EVENT_TRIGGER_CAPACITY = 100;

/** Options of {@linkcode EventTrigger}. */
export interface EventTriggerOptions {
  /** The bus the producers emit on (the same instance). */
  eventBus: EventBus;
  /** Event type to react to (`"*"` for every type). */
  eventType: string;
  /** Only react to events whose `source` equals this; events from other sources are silently ignored. */
  sourceFilter?: string;
  /** Trigger id. @default `event-<eventType>` */
  triggerId?: string;
  /** Capacity of the trigger's queue; when full, events are dropped with a warning. @default 100 */
  capacity?: number;
  /** Where drops are logged. */
  logger?: Logger;
}

/** Payload of an event trigger's events. */
export interface EventTriggerPayload {
  /** Event type. */
  event_type: string;
  /** Id of the bus event. */
  event_id: string;
  /** Who produced the event, or null. */
  source: string | null;
  /** Facts of the event. */
  data: Record<string, unknown>;
}

/** Subscribes to an {@linkcode EventBus} on start and unsubscribes on stop. */
export class EventTrigger extends SubscriptionTrigger {
  /** Event type reacted to. */
  readonly eventType: string;
  /** Required event source, when set. */
  readonly sourceFilter: string | undefined;
  #bus: EventBus;

  /** A trigger for `options.eventType` on `options.eventBus`; nothing is subscribed until `start()`. */
  constructor(options: EventTriggerOptions) {
    if (typeof options.eventType !== "string" || options.eventType === "") {
      throw new RangeError("eventType must be a non-empty string");
    }
    super({
      triggerId: options.triggerId ?? `event-${options.eventType}`,
      type: "event",
      capacity: options.capacity ?? EVENT_TRIGGER_CAPACITY,
      logger: options.logger,
    });
    this.#bus = options.eventBus;
    this.eventType = options.eventType;
    this.sourceFilter = options.sourceFilter;
  }

  /** Subscribes to the bus. */
  protected subscribe(): () => void {
    return this.#bus.subscribe(this.eventType, (event) => this.#onEvent(event));
  }

  #onEvent(event: BusEvent): void {
    if (this.sourceFilter !== undefined && event.source !== this.sourceFilter) return;
    const payload: EventTriggerPayload = {
      event_type: event.event_type,
      event_id: event.event_id,
      source: event.source,
      data: event.data,
    };
    this.emit(this.makeEvent(payload));
  }
}
