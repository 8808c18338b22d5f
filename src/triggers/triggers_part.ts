/**
 * The `triggers` part of a process: it starts the configured triggers with the process, runs one listener
 * per trigger that hands each event to the process queue (waiting while the queue is full, so cron and
 * file events are delayed, never dropped there), and stops them with the process. Triggers can be added
 * and removed while the process runs.
 *
 * Nothing a trigger accepted vanishes. A webhook has each event recorded in the process's event ledger
 * (`PartContext.accept`) before it answers 202; other triggers' events are recorded when handed to the
 * process queue. When the part stops, the events still in trigger queues and the one a listener holds
 * are recorded, and the process dead-letters them with the stop reason (`process stopped`). When one
 * trigger is removed live, its queued events and the held one are recorded and handed to the process
 * queue in order (in the background: the removal does not wait for room): they were accepted, and a
 * removal changes where new events come from, not the fate of accepted ones. If the process stops
 * before they are queued, they are dead-lettered with the stop reason.
 *
 * @module
 */

import { describeError } from "../_util/errors.ts";
import { EventBus } from "./event_bus.ts";
import { MessageBroker } from "./message_broker.ts";
import type { PartContext, ProcessPart, ProcessPartFactory, TriggerConfig } from "../runtime/mod.ts";
import { buildTrigger, type TriggerSources } from "./build_trigger.ts";
import { stableTriggerIds } from "./trigger_ids.ts";
import { type Trigger, TriggerCancelledError, type TriggerEvent } from "./types.ts";
import { TriggerBase } from "./trigger_base.ts";

/** Name of the part (its key in the status body). */
export const TRIGGERS_PART = "triggers";

/** Longest wait between listener retries after a trigger error, in seconds. */
const MAX_LISTENER_BACKOFF = 60;

/** Where a running trigger came from. */
export type TriggerSource = "config" | "dynamic";

/** Options for {@linkcode createTriggersPart}. */
export interface TriggersPartOptions {
  /** The bus event triggers subscribe to (share it with producers). @default a new bus */
  eventBus?: EventBus;
  /** The broker message triggers subscribe to (share it with publishers). @default a new broker */
  broker?: MessageBroker;
}

interface Entry {
  trigger: Trigger;
  source: TriggerSource;
  config: TriggerConfig | undefined;
  events: number;
  stop: AbortController;
  listener: Promise<void>;
  /** The event the listener took and has not handed to the process queue yet. */
  held: TriggerEvent | undefined;
}

/** Plugs triggers into every process of a runtime (`new AgentRuntime({ parts: [createTriggersPart()] })`). */
export function createTriggersPart(options: TriggersPartOptions = {}): ProcessPartFactory {
  const sources: TriggerSources = {
    eventBus: options.eventBus ?? new EventBus(),
    broker: options.broker ?? new MessageBroker(),
  };
  return (ctx) => new TriggersPart(ctx, sources);
}

/** The running triggers of one start of a process. */
export class TriggersPart implements ProcessPart {
  /** Part name. */
  readonly name: string = TRIGGERS_PART;
  #ctx: PartContext;
  #sources: TriggerSources;
  #entries = new Map<string, Entry>();

  /** The part for one start of the process behind `ctx`. */
  constructor(ctx: PartContext, sources: TriggerSources) {
    this.#ctx = ctx;
    this.#sources = sources;
  }

  /** Starts every configured trigger; if one cannot start, the started ones stop and this rejects. */
  async start(): Promise<void> {
    const configs = this.#ctx.config.triggers;
    const ids = stableTriggerIds(this.#ctx.deployedConfig.triggers);
    try {
      for (const [index, config] of configs.entries()) {
        await this.add(config, { triggerId: ids[index], source: "config" });
      }
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Stops every trigger and waits for the listeners to end. */
  async stop(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((entry) => this.#halt(entry)));
    // Recorded here, dead-lettered by the process when its delivery ends.
    for (const entry of entries) await this.#record(this.#leftovers(entry));
  }

  /** Starts one more trigger now, under `triggerId`; rejects (changing nothing) when it cannot start. */
  async add(config: TriggerConfig, options: { triggerId: string; source: TriggerSource }): Promise<void> {
    const { triggerId, source } = options;
    if (this.#entries.has(triggerId)) throw new Error(`trigger ${triggerId} is already running`);
    const trigger = buildTrigger(config, {
      triggerId,
      sources: this.#sources,
      logger: this.#ctx.logger,
      accept: (event) => this.#ctx.accept(event),
      accepting: () => (this.#ctx.state === "stopping" || this.#ctx.state === "failed"
        ? `process ${this.#ctx.state}`
        : undefined),
    });
    await trigger.start();
    const entry: Entry = {
      trigger,
      source,
      config,
      events: 0,
      stop: new AbortController(),
      listener: Promise.resolve(),
      held: undefined,
    };
    entry.listener = this.#listen(entry);
    this.#entries.set(triggerId, entry);
  }

  /** Stops and forgets one trigger; false when no trigger has this id. */
  async remove(triggerId: string): Promise<boolean> {
    const entry = this.#entries.get(triggerId);
    if (!entry) return false;
    this.#entries.delete(triggerId);
    await this.#halt(entry);
    const events = this.#leftovers(entry);
    await this.#record(events);
    if (events.length > 0) void this.#handOver(events);
    return true;
  }

  /** Ids and sources of the running triggers. */
  running(): Array<{ id: string; source: TriggerSource; type: string; config: TriggerConfig | undefined }> {
    return [...this.#entries].map(([id, e]) => ({
      id,
      source: e.source,
      type: e.trigger.type,
      config: e.config,
    }));
  }

  /** `{count, triggers: [{id, type, source, events, queue_size, dropped}]}`. */
  status(): Record<string, unknown> {
    const triggers = [...this.#entries].map(([id, entry]) => ({
      id,
      type: entry.trigger.type,
      source: entry.source,
      events: entry.events,
      queue_size: entry.trigger.queueSize,
      dropped: entry.trigger.dropped,
    }));
    return { count: triggers.length, triggers };
  }

  async #halt(entry: Entry): Promise<void> {
    try {
      await entry.trigger.stop();
    } catch (error) {
      this.#ctx.logger.warning("trigger failed to stop", {
        trigger_id: entry.trigger.triggerId,
        error: describeError(error),
      });
    }
    entry.stop.abort();
    await entry.listener;
  }

  /** The held event and the queued ones of a halted trigger, in order. */
  #leftovers(entry: Entry): TriggerEvent[] {
    const queued = entry.trigger instanceof TriggerBase ? entry.trigger.drain() : [];
    const events = entry.held ? [entry.held, ...queued] : queued;
    entry.held = undefined;
    return events;
  }

  /** Records events in the process's event ledger (one write failure is logged; the rest go on). */
  async #record(events: TriggerEvent[]): Promise<void> {
    for (const event of events) {
      await this.#ctx.accept(event).catch((error) => {
        this.#ctx.logger.error("trigger event could not be recorded", {
          process: this.#ctx.name,
          event_id: event.event_id,
          error: describeError(error),
        });
      });
    }
  }

  /** Hands a removed trigger's events to the process queue, in order; stops at the first refusal. */
  async #handOver(events: TriggerEvent[]): Promise<void> {
    for (const event of events) {
      try {
        await this.#ctx.deliver(event);
      } catch {
        return; // the process stopped: it dead-letters what it accepted
      }
    }
  }

  async #listen(entry: Entry): Promise<void> {
    const { trigger } = entry;
    const signal = entry.stop.signal;
    let backoff = 1;
    while (!signal.aborted) {
      let event;
      try {
        event = await trigger.waitForNext();
        backoff = 1;
      } catch (error) {
        if (error instanceof TriggerCancelledError || signal.aborted) return;
        const fields = {
          process: this.#ctx.name,
          trigger_id: trigger.triggerId,
          error: describeError(error),
        };
        this.#ctx.logger.warning("trigger listener failed; retrying", { ...fields, retry_in: backoff });
        await sleep(backoff * 1000, signal);
        backoff = Math.min(MAX_LISTENER_BACKOFF, backoff * 2);
        continue;
      }
      entry.events++;
      entry.held = event;
      const { trigger_id, trigger_type, event_id, payload } = event;
      await this.#ctx.journal?.record("trigger_event", { trigger_id, trigger_type, event_id, payload });
      try {
        await this.#ctx.deliver(event, signal);
        entry.held = undefined;
      } catch {
        return; // stopped or removed: the held event is recorded and dead-lettered or handed over
      }
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
