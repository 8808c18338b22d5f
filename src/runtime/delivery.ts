/**
 * Delivery: the process queue and its workers. Every trigger feeds one bounded queue; `concurrency`
 * workers take events and run the agent for them. A failed run is retried after a backoff
 * (`trigger_delivery.max_retries`, `retry_backoff`, `retry_backoff_max`); when retries are exhausted
 * the event is dead-lettered and counts as a consecutive failure; `max_consecutive_failures` of them
 * move the process to `failed`. A success resets the count. Blocked runs (guardrails, no runner) are
 * dead-lettered without counting. Suspended processes hold events; stopping dead-letters what is left.
 * Every step is recorded in a {@linkcode DeliveryLedger} (the process's event ledger): a run begins only
 * once its `begun` record is written, so a crash never runs an event twice.
 *
 * @module
 */

import { BoundedQueue, QueueAbortedError } from "../_util/bounded_queue.ts";
import { describeError } from "../_util/errors.ts";
import type { TriggerDeliveryConfig } from "./config/mod.ts";
import type { DeadLetter } from "./dead_letters.ts";
import { type ProcessEvent, RunBlockedError } from "./process_event.ts";

/** Capacity of the process queue unless `trigger_delivery.queue_capacity` sets it. */
export const PROCESS_QUEUE_CAPACITY = 1000;

/** What delivery needs from its process. */
export interface DeliveryHost {
  /** Resolves when runs may happen (running, or awaiting woken up); rejects when `signal` aborts. */
  runnable(signal: AbortSignal): Promise<void>;
  /** Runs the agent for one event. */
  run(event: ProcessEvent, attempt: number, signal: AbortSignal): Promise<unknown>;
  /** Moves the process to failed (not awaited: the caller is one of the workers). */
  fail(reason: string): void;
  /** Logs a warning. */
  warn(message: string, fields: Record<string, unknown>): void;
}

/** Where delivery records each event's progress (the process's event ledger). */
export interface DeliveryLedger {
  /** Dead letters held. */
  readonly deadLetters: { readonly size: number };
  /** A run of `attempt` begins; resolves once recorded. */
  begin(eventId: string, attempt: number): Promise<void>;
  /** The last attempt failed; the event waits for its retry. */
  retry(eventId: string): Promise<void>;
  /** The event's run succeeded. */
  settle(eventId: string): Promise<void>;
  /** The event is given up. */
  deadLetter(letter: Omit<DeadLetter, "dead_lettered_at">): Promise<void>;
}

/** Delivery counters (part of the status body under `delivery`). */
export interface DeliveryStatus {
  /** Events waiting in the process queue. */
  queue_size: number;
  /** Capacity of the process queue. */
  queue_capacity: number;
  /** Workers (`concurrency`). */
  workers: number;
  /** Runs in progress. */
  in_flight: number;
  /** Runs that succeeded in this start. */
  runs_succeeded: number;
  /** Events given up after their retries in this start. */
  runs_failed: number;
  /** Events given up in a row (a success resets it). */
  consecutive_failures: number;
  /** Retries waiting for their backoff. */
  pending_retries: number;
  /** Dead letters held. */
  dead_letters: number;
}

interface Item {
  event: ProcessEvent;
  attempt: number;
}

/** The queue and workers of one start of a process. */
export class Delivery {
  #host: DeliveryHost;
  #settings: TriggerDeliveryConfig;
  #workers: number;
  #ledger: DeliveryLedger;
  #queue: BoundedQueue<Item>;
  #stop = new AbortController();
  #running: Promise<void>[] = [];
  #retries = new Map<ReturnType<typeof setTimeout>, Item>();
  #inFlight = 0;
  #succeeded = 0;
  #failed = 0;
  #consecutive = 0;

  /** Delivery for `workers` workers with these settings, recording into `ledger`. */
  constructor(
    host: DeliveryHost,
    options: { settings: TriggerDeliveryConfig; workers: number; ledger: DeliveryLedger },
  ) {
    this.#host = host;
    this.#settings = options.settings;
    this.#workers = options.workers;
    this.#ledger = options.ledger;
    this.#queue = new BoundedQueue<Item>(options.settings.queue_capacity ?? PROCESS_QUEUE_CAPACITY);
  }

  /** Queues an event ahead of new ones, even past capacity (events recovered at a start). */
  requeue(event: ProcessEvent, attempt: number): void {
    this.#queue.force({ event, attempt });
  }

  /** Starts the workers. */
  start(): void {
    for (let i = 0; i < this.#workers; i++) this.#running.push(this.#work());
  }

  /** Queues an event, waiting for room (trigger listeners wait rather than drop). */
  async deliver(event: ProcessEvent, signal?: AbortSignal): Promise<void> {
    const item = { event, attempt: 1 };
    // With room, `put` queues at once whatever the signals say: no combined signal is built for that case
    // (AbortSignal.any was two thirds of `deliver` in the webhook benchmark's profile).
    if (this.#queue.offer(item)) return;
    const signals = signal ? AbortSignal.any([signal, this.#stop.signal]) : this.#stop.signal;
    await this.#queue.put(item, signals);
  }

  /** Queues an event without waiting; a full queue dead-letters it and answers false. */
  offer(event: ProcessEvent): boolean {
    if (!this.#stop.signal.aborted && this.#queue.offer({ event, attempt: 1 })) return true;
    this.#record(this.#ledger.deadLetter({ event, reason: "queue full", error: null, attempts: 0 }));
    return false;
  }

  /** Counters. */
  status(): DeliveryStatus {
    return {
      queue_size: this.#queue.size,
      queue_capacity: this.#queue.capacity,
      workers: this.#workers,
      in_flight: this.#inFlight,
      runs_succeeded: this.#succeeded,
      runs_failed: this.#failed,
      consecutive_failures: this.#consecutive,
      pending_retries: this.#retries.size,
      dead_letters: this.#ledger.deadLetters.size,
    };
  }

  /** Stops the workers (aborting runs in flight) and dead-letters queued events and pending retries. */
  async stop(reason: "process stopped" | "process failed"): Promise<void> {
    this.#stop.abort();
    const letters: Promise<void>[] = [];
    const giveUp = (item: Item) => {
      const letter = { event: item.event, reason, error: null, attempts: item.attempt - 1 };
      letters.push(this.#record(this.#ledger.deadLetter(letter)));
    };
    for (const [timer, item] of this.#retries) {
      clearTimeout(timer);
      giveUp(item);
    }
    this.#retries.clear();
    await Promise.all(this.#running);
    for (const item of this.#queue.drain()) giveUp(item);
    await Promise.all(letters);
  }

  async #work(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      let item: Item;
      try {
        item = await this.#queue.take(signal);
        await this.#host.runnable(signal);
      } catch (error) {
        if (error instanceof QueueAbortedError || signal.aborted) break;
        throw error;
      }
      if (await this.#runOne(item, signal) === "fail") return;
    }
  }

  async #runOne(item: Item, signal: AbortSignal): Promise<"ok" | "fail"> {
    this.#inFlight++;
    try {
      await this.#ledger.begin(item.event.event_id, item.attempt);
      await this.#host.run(item.event, item.attempt, signal);
      this.#record(this.#ledger.settle(item.event.event_id));
      this.#succeeded++;
      this.#consecutive = 0;
      return "ok";
    } catch (error) {
      return this.#onFailure(item, error, signal);
    } finally {
      this.#inFlight--;
    }
  }

  #onFailure(item: Item, error: unknown, signal: AbortSignal): "ok" | "fail" {
    const letter = { event: item.event, error: describeError(error), attempts: item.attempt };
    if (signal.aborted) {
      this.#record(this.#ledger.deadLetter({ ...letter, reason: "process stopped" }));
      return "ok";
    }
    if (error instanceof RunBlockedError) {
      this.#record(this.#ledger.deadLetter({ ...letter, reason: error.reason }));
      return "ok";
    }
    if (item.attempt <= this.#settings.max_retries) {
      const delay = Math.min(
        this.#settings.retry_backoff_max,
        this.#settings.retry_backoff * 2 ** (item.attempt - 1),
      );
      const next = { event: item.event, attempt: item.attempt + 1 };
      const timer = setTimeout(() => {
        this.#retries.delete(timer);
        this.#queue.force(next);
      }, delay * 1000);
      this.#retries.set(timer, next);
      this.#record(this.#ledger.retry(item.event.event_id));
      return "ok";
    }
    this.#failed++;
    this.#consecutive++;
    this.#record(this.#ledger.deadLetter({ ...letter, reason: "retries exhausted" }));
    this.#host.warn("run failed; event dead-lettered", {
      event_id: item.event.event_id,
      attempts: item.attempt,
      consecutive_failures: this.#consecutive,
    });
    if (this.#consecutive < this.#settings.max_consecutive_failures) return "ok";
    this.#host.fail(`${this.#consecutive} consecutive failed runs`);
    return "fail";
  }

  /** Logs a ledger write that failed (the state in memory stands; the next start may redo the step). */
  #record(written: Promise<void>): Promise<void> {
    return written.catch((error) =>
      this.#host.warn("event ledger write failed", { error: describeError(error) })
    );
  }
}
