/**
 * An in-process publish/subscribe bus of typed events. Producers and {@linkcode EventTrigger}s must share
 * one instance.
 *
 * @example
 * ```ts
 * import { EventBus } from "./event_bus.ts";
 * const bus = new EventBus();
 * const seen: string[] = [];
 * const unsubscribe = bus.subscribe("order.created", (event) => seen.push(event.event_id));
 * const id = bus.emit({ event_type: "order.created", source: "shop", data: { order: 42 } });
 * unsubscribe();
 * ```
 *
 * @module
 */

import { uuid } from "../_util/ids.ts";
import { callHandler } from "./_call_handler.ts";
import type { Logger } from "../log.ts";

/** Event type a subscriber uses to receive every event. */
export const ANY_EVENT_TYPE = "*";

/** What a producer passes to {@linkcode EventBus.emit}. */
export interface BusEventInput {
  /** Event type, a non-empty string such as `order.created`. */
  event_type: string;
  /** Who produced the event. */
  source?: string;
  /** Facts of the event. @default {} */
  data?: Record<string, unknown>;
}

/** One event as subscribers receive it (frozen at the top level; shared by every subscriber). */
export interface BusEvent {
  /** Event type. */
  readonly event_type: string;
  /** Unique id of the event (UUID). */
  readonly event_id: string;
  /** Who produced the event, or null. */
  readonly source: string | null;
  /** Facts of the event (a copy of what the producer passed). */
  readonly data: Record<string, unknown>;
  /** ISO 8601 UTC time of emission. */
  readonly timestamp: string;
}

/** Receives bus events; it runs synchronously inside {@linkcode EventBus.emit}. */
export type BusEventHandler = (event: BusEvent) => void;

/** Options of {@linkcode EventBus}. */
export interface EventBusOptions {
  /** Where failing handlers are logged. When absent, failures are swallowed. */
  logger?: Logger;
}

/** A synchronous, in-process event bus; a failing handler never affects the producer or other handlers. */
export class EventBus {
  #handlers = new Map<string, Set<{ handler: BusEventHandler }>>();
  #logger: Logger | undefined;

  /** A bus with no subscribers. */
  constructor(options: EventBusOptions = {}) {
    this.#logger = options.logger;
  }

  /**
   * Emits an event to the subscribers of its type and to `"*"` subscribers, synchronously.
   * Returns the new event id. Throws a RangeError when `event_type` is empty.
   */
  emit(input: BusEventInput): string {
    checkEventType(input.event_type);
    const event: BusEvent = Object.freeze({
      event_type: input.event_type,
      event_id: uuid(),
      source: input.source ?? null,
      data: { ...(input.data ?? {}) },
      timestamp: new Date().toISOString(),
    });
    const targets = [...(this.#handlers.get(event.event_type) ?? [])];
    if (event.event_type !== ANY_EVENT_TYPE) targets.push(...(this.#handlers.get(ANY_EVENT_TYPE) ?? []));
    for (const { handler } of targets) this.#deliver(handler, event);
    return event.event_id;
  }

  /**
   * Calls `handler` for every event of `eventType` (`"*"` for all). Returns a function that removes this
   * subscription (calling it again does nothing).
   */
  subscribe(eventType: string, handler: BusEventHandler): () => void {
    checkEventType(eventType);
    const entry = { handler };
    let set = this.#handlers.get(eventType);
    if (!set) this.#handlers.set(eventType, set = new Set());
    set.add(entry);
    return () => {
      const current = this.#handlers.get(eventType);
      if (!current?.delete(entry)) return;
      if (current.size === 0) this.#handlers.delete(eventType);
    };
  }

  /** Subscriptions to `eventType` (exactly that key, `"*"` included), or to all types when absent. */
  subscriberCount(eventType?: string): number {
    if (eventType !== undefined) return this.#handlers.get(eventType)?.size ?? 0;
    let count = 0;
    for (const set of this.#handlers.values()) count += set.size;
    return count;
  }

  #deliver(handler: BusEventHandler, event: BusEvent): void {
    callHandler(handler, event, {
      logger: this.#logger,
      message: "event handler failed",
      fields: { event_type: event.event_type, event_id: event.event_id },
    });
  }
}

function checkEventType(eventType: string): void {
  if (typeof eventType !== "string" || eventType === "") {
    throw new RangeError("event_type must be a non-empty string");
  }
}
