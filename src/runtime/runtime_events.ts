/**
 * Runtime events: what happened in a runtime (deploys, removals, state changes, runs, trigger fires, dead
 * letters, anomalies) as a typed feed with sequence ids, kept in a ring of the newest
 * {@linkcode RUNTIME_EVENT_CAPACITY} so a reader that reconnects can replay what it missed.
 *
 * The control API serves it as `GET /api/v1/events`; the runtime core knows nothing of HTTP.
 *
 * @module
 */

import type { ProcessState } from "./lifecycle.ts";
import type { RunStatus, TokenUsage } from "./run_log.ts";
import type { AnomalyType } from "./health/detectors.ts";

/** Events kept for replay. */
export const RUNTIME_EVENT_CAPACITY = 1000;

/** Every runtime event type, in documentation order. */
export const RUNTIME_EVENT_TYPES = [
  "process.deployed",
  "process.removed",
  "process.state",
  "run.started",
  "run.ended",
  "trigger.fired",
  "dead_letter.added",
  "anomaly",
] as const;

/** One of {@linkcode RUNTIME_EVENT_TYPES}. */
export type RuntimeEventType = typeof RUNTIME_EVENT_TYPES[number];

/** Fields every event's data has. */
export interface RuntimeEventBase {
  /** Process name. */
  process: string;
  /** ISO 8601 UTC time. */
  at: string;
}

/** The data of each event type (snake_case wire names). */
export interface RuntimeEventDataMap {
  /** A process was registered (deploy, manifest, restore). */
  "process.deployed": RuntimeEventBase & { process_id: string; source: string };
  /** A process was removed. */
  "process.removed": RuntimeEventBase & { process_id: string };
  /** A lifecycle transition. */
  "process.state": RuntimeEventBase & { state: ProcessState; previous: ProcessState; reason: string };
  /** A run began. */
  "run.started": RuntimeEventBase & {
    run_id: string;
    event_id: string;
    trigger_id: string;
    trigger_type: string;
    attempt: number;
  };
  /** A run ended. */
  "run.ended": RuntimeEventBase & {
    run_id: string;
    trigger_id: string;
    trigger_type: string;
    status: Exclude<RunStatus, "running">;
    steps: number;
    model_turns: number;
    tool_calls: number;
    usage: TokenUsage;
    duration_ms: number | null;
    error: string | null;
  };
  /** A trigger produced an event the process accepted. */
  "trigger.fired": RuntimeEventBase & { trigger_id: string; trigger_type: string; event_id: string };
  /** An event was given up (its `event_id` is the dead letter's id in the dead-letter routes). */
  "dead_letter.added": RuntimeEventBase & {
    event_id: string;
    trigger_id: string;
    trigger_type: string;
    reason: string;
    error: string | null;
    attempts: number;
  };
  /** Health monitoring recorded an anomaly (the fields of the health area's `Anomaly`). */
  "anomaly": RuntimeEventBase & {
    type: AnomalyType;
    description: string;
    run_id: string;
    details: Record<string, unknown>;
  };
}

/** One runtime event: a sequence id (per runtime, increasing from 1), its type and its data. */
export type RuntimeEvent = {
  [K in RuntimeEventType]: { id: number; type: K; data: RuntimeEventDataMap[K] };
}[RuntimeEventType];

/** A reader of the feed. */
export interface RuntimeEventSubscriber {
  /** Each event, as it is emitted (synchronously; a throwing reader is dropped). */
  event(event: RuntimeEvent): void;
  /** The feed ended (the runtime closed, or the server let its readers go). */
  close(): void;
}

/** What {@linkcode RuntimeEventLog.since} answers. */
export interface RuntimeEventReplay {
  /**
   * Why the reader must start over, or undefined: `gap` when events after its id were dropped from the
   * ring, `unknown_id` when the id is ahead of this runtime (a restarted runtime counts from 1 again).
   */
  reset?: "gap" | "unknown_id";
  /** Events kept after the id (all kept events after a reset), oldest first. */
  events: RuntimeEvent[];
}

/** The runtime's event feed: emit, replay, subscribe. */
export class RuntimeEventLog {
  #capacity: number;
  #ring: RuntimeEvent[] = [];
  #seq = 0;
  #subscribers = new Set<RuntimeEventSubscriber>();
  #closed = false;

  /** A feed keeping the newest `capacity` events. @default {@linkcode RUNTIME_EVENT_CAPACITY} */
  constructor(capacity: number = RUNTIME_EVENT_CAPACITY) {
    if (!(Number.isInteger(capacity) && capacity > 0)) {
      throw new RangeError("capacity must be an integer > 0");
    }
    this.#capacity = capacity;
  }

  /** The id of the newest event (0 before the first). */
  get lastId(): number {
    return this.#seq;
  }

  /** Readers subscribed now. */
  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** Emits an event with the next id; `at` defaults to now. Returns it (undefined once closed). */
  emit<K extends RuntimeEventType>(
    type: K,
    data: Omit<RuntimeEventDataMap[K], "at"> & { at?: string },
  ): RuntimeEvent | undefined {
    if (this.#closed) return undefined;
    const event = {
      id: ++this.#seq,
      type,
      data: { ...data, at: data.at ?? new Date().toISOString() },
    } as unknown as RuntimeEvent;
    this.#ring.push(event);
    if (this.#ring.length > this.#capacity) this.#ring.shift();
    for (const subscriber of [...this.#subscribers]) {
      try {
        subscriber.event(event);
      } catch {
        this.#subscribers.delete(subscriber);
      }
    }
    return event;
  }

  /** Kept events after `id` (see {@linkcode RuntimeEventReplay}). */
  since(id: number): RuntimeEventReplay {
    if (id > this.#seq) return { reset: "unknown_id", events: [...this.#ring] };
    const first = this.#ring[0]?.id ?? this.#seq + 1;
    if (id < first - 1) return { reset: "gap", events: [...this.#ring] };
    return { events: this.#ring.slice(id - first + 1) };
  }

  /** Adds a reader; returns its unsubscribe function. After {@linkcode close} the reader is closed at once. */
  subscribe(subscriber: RuntimeEventSubscriber): () => void {
    if (this.#closed) {
      subscriber.close();
      return () => {};
    }
    this.#subscribers.add(subscriber);
    return () => void this.#subscribers.delete(subscriber);
  }

  /** Lets every current reader go (their `close` is called); new readers may still subscribe. */
  disconnectAll(): void {
    const subscribers = [...this.#subscribers];
    this.#subscribers.clear();
    for (const subscriber of subscribers) {
      try {
        subscriber.close();
      } catch {
        // a reader's failure is its own
      }
    }
  }

  /** Ends the feed: readers are let go, later events are not kept. */
  close(): void {
    this.#closed = true;
    this.disconnectAll();
  }
}
