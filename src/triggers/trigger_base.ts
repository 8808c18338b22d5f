/**
 * Shared machinery of the built-in triggers: an own bounded queue, `waitForNext`, the stop sentinel, and
 * the optional `accept` hook through which a trigger whose client waits (the webhook) has each event
 * recorded in the process's event ledger before answering.
 *
 * @module
 */

import { describeError } from "../_util/errors.ts";
import { uuid } from "../_util/ids.ts";
import type { Logger } from "../log.ts";
import { BoundedQueue } from "../_util/bounded_queue.ts";
import {
  STOP_KEY,
  type Trigger,
  TriggerCancelledError,
  type TriggerEvent,
  type TriggerType,
} from "./types.ts";

/** Options every built-in trigger takes. */
export interface TriggerBaseOptions {
  /** Trigger id. */
  triggerId: string;
  /** Trigger type. */
  type: TriggerType;
  /** Capacity of the trigger's own queue. */
  capacity: number;
  /** Where drops are logged. */
  logger?: Logger;
  /**
   * Records an event durably before it is queued (the process's `PartContext.accept`); used by
   * {@linkcode TriggerBase.admit}. @default none: events are recorded when handed to the process
   */
  accept?: (event: TriggerEvent) => Promise<void>;
}

/**
 * Base class of the built-in triggers: subclasses call {@linkcode TriggerBase.emit} and implement
 * `listen`/`unlisten`. Not published: a custom trigger implements the `Trigger` interface.
 *
 * @internal
 */
export abstract class TriggerBase implements Trigger {
  /** Id put on every event. */
  readonly triggerId: string;
  /** Trigger type. */
  readonly type: TriggerType;
  /** Logger for drops and failures (may be undefined). */
  protected readonly logger: Logger | undefined;
  #queue: BoundedQueue<TriggerEvent>;
  #accept: ((event: TriggerEvent) => Promise<void>) | undefined;
  #reserved = 0;
  #dropped = 0;
  #running = false;
  #stopped = false;

  /** Sets up the queue. */
  constructor(options: TriggerBaseOptions) {
    this.triggerId = options.triggerId;
    this.type = options.type;
    this.logger = options.logger;
    this.#queue = new BoundedQueue(options.capacity);
    this.#accept = options.accept;
  }

  /** Events waiting. */
  get queueSize(): number {
    return this.#queue.size;
  }

  /** Queue capacity. */
  get queueCapacity(): number {
    return this.#queue.capacity;
  }

  /** Events refused because the queue was full. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Whether the trigger is listening. */
  get running(): boolean {
    return this.#running;
  }

  /** Starts listening. */
  async start(): Promise<void> {
    if (this.#running) return;
    if (this.#stopped) throw new Error(`trigger ${this.triggerId} was stopped; make a new one`);
    await this.listen();
    this.#running = true;
  }

  /** Stops listening, then enqueues the stop sentinel. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#running) await this.unlisten();
    this.#running = false;
    this.#queue.force(this.makeEvent(null, { [STOP_KEY]: true }));
  }

  /** The next event, or {@linkcode TriggerCancelledError} at the stop sentinel (and after it). */
  async waitForNext(): Promise<TriggerEvent> {
    const event = await this.#queue.take();
    if (event.metadata[STOP_KEY] === true) {
      this.#queue.force(event);
      throw new TriggerCancelledError(this.triggerId);
    }
    return event;
  }

  /** Removes and returns the events still queued (after {@linkcode TriggerBase.stop}: they were never taken). */
  drain(): TriggerEvent[] {
    return this.#queue.drain().filter((event) => event.metadata[STOP_KEY] !== true);
  }

  /** A new event of this trigger. */
  protected makeEvent(payload: unknown, metadata: Record<string, unknown> = {}): TriggerEvent {
    return {
      trigger_id: this.triggerId,
      trigger_type: this.type,
      event_id: uuid(),
      timestamp: new Date().toISOString(),
      payload,
      metadata,
    };
  }

  /** Queues an event without waiting; false (and a warning) when the queue is full. */
  protected emit(event: TriggerEvent): boolean {
    if (this.#queue.offer(event)) return true;
    this.#drop(event);
    return false;
  }

  #drop(event: TriggerEvent): void {
    this.#dropped++;
    this.logger?.warning("trigger queue full: event dropped", {
      trigger_id: this.triggerId,
      event_id: event.event_id,
      capacity: this.#queue.capacity,
    });
  }

  /**
   * Records the event through the `accept` hook, then queues it: `queued` once both are done, `full` when
   * the queue has no room (nothing recorded), `unrecorded` when the write failed (nothing queued). Room
   * is reserved while the write runs, so the queue never exceeds its capacity. Without a hook: `emit`.
   */
  protected async admit(event: TriggerEvent): Promise<"queued" | "full" | "unrecorded"> {
    const accept = this.#accept;
    if (!accept) return this.emit(event) ? "queued" : "full";
    if (this.#queue.size + this.#reserved >= this.#queue.capacity) {
      // Full once the writes under way land: refused, never queued unrecorded past them.
      this.#drop(event);
      return "full";
    }
    this.#reserved++;
    try {
      await accept(event);
    } catch (error) {
      this.logger?.error("trigger event could not be recorded; refused", {
        trigger_id: this.triggerId,
        event_id: event.event_id,
        error: describeError(error),
      });
      return "unrecorded";
    } finally {
      this.#reserved--;
    }
    this.#queue.force(event);
    return "queued";
  }

  /** Starts the source (bind, subscribe, schedule). */
  protected abstract listen(): Promise<void>;
  /** Stops the source. */
  protected abstract unlisten(): Promise<void>;
}
