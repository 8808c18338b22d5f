/**
 * Escalator: delivers the escalations (budget, health, mission) of one process to their target. With
 * `event_type`, the escalation body is emitted as an event on the runtime's {@linkcode RuntimeEvents} (the
 * triggers area's `EventBus` is one), `source` the process name, before the webhook is called; with
 * `webhook_url`, the same body is POSTed there ({@linkcode sendEscalation}). Without events (a library
 * runtime built without `events`), an `event_type` is not emitted: the process logs a warning, once, and
 * each escalation records `event: "no_event_bus"`.
 *
 * @example
 * ```ts
 * import { Escalator } from "./escalator.ts";
 * const seen: unknown[] = [];
 * const escalator = new Escalator({ process: "writer", events: { emit: (event) => seen.push(event) } });
 * const delivery = await escalator.escalate({ event_type: "ops.alert" }, { type: "budget_violation" });
 * console.log(delivery.event, seen.length); // "emitted" 1
 * ```
 *
 * @module
 */

import { describeError } from "../_util/errors.ts";
import { Logger } from "../log.ts";
import type { EscalationTarget } from "./config/mod.ts";
import { type EscalationOutcome, sendEscalation, type SendEscalationOptions } from "./send_escalation.ts";

/** An event the runtime emits (the shape of the triggers area's `BusEventInput`). */
export interface RuntimeEventInput {
  /** Event type, non-empty. */
  event_type: string;
  /** Who produced it (for escalations: the process name). */
  source?: string;
  /** Facts of the event (for escalations: the escalation body). */
  data?: Record<string, unknown>;
}

/**
 * Where the runtime emits events (`escalation.event_type`). The triggers area's `EventBus` satisfies it:
 * share one bus between `createTriggersPart({ eventBus })` and `new AgentRuntime({ events: eventBus })` so
 * `event` triggers see escalations. `emit` runs synchronously; what it returns (an event id) is recorded.
 */
export interface RuntimeEvents {
  /** Emits `event` to its subscribers. */
  emit(event: RuntimeEventInput): unknown;
}

/** What became of one escalation: the webhook's outcome and the event's. */
export interface EscalationDelivery {
  /** Whether the target has a `webhook_url` (`sent`, `status` and `error` are about it). */
  webhook: boolean;
  /** Whether the webhook answered 2xx (false without a webhook). */
  sent: boolean;
  /** The webhook's HTTP status, when it answered. */
  status?: number;
  /** Why the webhook was not called or failed (refused by the policy, network error, timeout, status). */
  error?: string;
  /**
   * `emitted`; `none` without `event_type`; `no_event_bus` when the runtime has no events to emit on;
   * `failed` when `emit` threw (`event_error` says why).
   */
  event: "emitted" | "none" | "no_event_bus" | "failed";
  /** The event's id, when `emit` returned a string (an `EventBus` does). */
  event_id?: string;
  /** Why the event could not be emitted. */
  event_error?: string;
}

/** Delivers one escalation; never rejects (see {@linkcode Escalator.escalate}). */
export type EscalateFunction = (
  target: EscalationTarget,
  payload: Record<string, unknown>,
) => Promise<EscalationDelivery>;

/** Options of {@linkcode Escalator}. */
export interface EscalatorOptions {
  /** The process whose escalations these are (the events' `source`). */
  process: string;
  /** Where `event_type` escalations are emitted. @default none: they are not emitted (warned once) */
  events?: RuntimeEvents;
  /** Where failed deliveries are logged. @default a logger named `agentry.escalation` */
  logger?: Logger;
  /** Webhook options (timeout, resolver). */
  send?: SendEscalationOptions;
}

/** Delivers one process's escalations; see the module doc. */
export class Escalator {
  #process: string;
  #events: RuntimeEvents | undefined;
  #logger: Logger;
  #send: SendEscalationOptions | undefined;
  #warnedNoBus = false;

  /** An escalator for `options.process`. */
  constructor(options: EscalatorOptions) {
    this.#process = options.process;
    this.#events = options.events;
    this.#logger = options.logger ?? new Logger("agentry.escalation");
    this.#send = options.send;
  }

  /**
   * Emits `payload` as the event `target.event_type` (when set), then POSTs it to `target.webhook_url`
   * (when set). Never throws; failures are logged as warnings and returned.
   */
  async escalate(target: EscalationTarget, payload: Record<string, unknown>): Promise<EscalationDelivery> {
    const event = this.#emit(target.event_type, payload);
    const webhook = target.webhook_url !== undefined;
    const outcome: EscalationOutcome = webhook
      ? await sendEscalation(target, payload, this.#send)
      : { sent: false };
    const delivery: EscalationDelivery = { ...outcome, webhook, ...event };
    if (webhook && !outcome.sent) {
      this.#logger.warning("escalation webhook not delivered", {
        process: this.#process,
        type: payload.type,
        ...outcome,
      });
    }
    return delivery;
  }

  #emit(
    eventType: string | undefined,
    payload: Record<string, unknown>,
  ): Pick<EscalationDelivery, "event" | "event_id" | "event_error"> {
    if (eventType === undefined) return { event: "none" };
    if (!this.#events) {
      if (!this.#warnedNoBus) {
        this.#warnedNoBus = true;
        this.#logger.warning(
          "escalation.event_type is set but the runtime has no event bus (AgentRuntime option events): " +
            "escalation events are not emitted",
          { process: this.#process, event_type: eventType },
        );
      }
      return { event: "no_event_bus" };
    }
    try {
      const id = this.#events.emit({ event_type: eventType, source: this.#process, data: payload });
      return typeof id === "string" ? { event: "emitted", event_id: id } : { event: "emitted" };
    } catch (error) {
      const event_error = describeError(error);
      this.#logger.warning("escalation event not emitted", {
        process: this.#process,
        event_type: eventType,
        error: event_error,
      });
      return { event: "failed", event_error };
    }
  }
}

/**
 * How a governance part (health, mission, budget action) escalates for `host`: the host's own `escalate`
 * (a governed host's shares the process's escalator and event bus), else an {@linkcode Escalator} of its
 * own, built at the first escalation, with no event bus.
 */
export function escalateVia(
  host: { readonly name: string; escalate?: EscalateFunction },
  options: { logger?: Logger; send?: SendEscalationOptions } = {},
): EscalateFunction {
  if (host.escalate) return host.escalate.bind(host);
  let own: Escalator | undefined;
  return (target, payload) => {
    own ??= new Escalator({ process: host.name, logger: options.logger, send: options.send });
    return own.escalate(target, payload);
  };
}
