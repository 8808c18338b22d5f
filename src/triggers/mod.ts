/**
 * Triggers: what wakes agent processes. Cron schedules, webhooks (with HMAC signatures), file watches,
 * an in-process event bus and a message broker with wildcard topics. Each trigger has its own bounded
 * queue; {@linkcode createTriggersPart} plugs them into every process of a runtime, feeding the
 * process queue that `concurrency` workers drain.
 *
 * @example
 * ```ts
 * import { AgentRuntime } from "@agentry/agentry";
 * import { createTriggersPart, EventBus } from "@agentry/agentry/triggers";
 *
 * const eventBus = new EventBus();
 * const woken = Promise.withResolvers<void>();
 * const runtime = new AgentRuntime({
 *   parts: [createTriggersPart({ eventBus })],
 *   invoker: (run) => {
 *     console.log("woken by", run.event.trigger_type, run.event.payload);
 *     woken.resolve();
 *     return Promise.resolve({ response: "done" });
 *   },
 * });
 * await runtime.deploy("watcher", { triggers: [{ type: "event", event_type: "order.created" }] }, {
 *   start: true,
 * });
 * eventBus.emit({ event_type: "order.created", source: "shop", data: { id: 7 } });
 * await woken.promise;
 * await runtime.close();
 * ```
 *
 * @module
 */

// This list is the whole public surface of `@agentry/agentry/triggers`, the one place trigger names are
// published. Queues, the trigger base class, id digests and glob helpers stay private.

// Plug triggers into a runtime: every process then runs the triggers of its config.
export {
  createTriggersPart,
  type TriggerSource,
  TriggersPart,
  type TriggersPartOptions,
} from "./triggers_part.ts";

// Add, list and remove the triggers of a running process (what the control API's trigger routes do).
export {
  addTrigger,
  listTriggers,
  removeTrigger,
  type TriggerChange,
  type TriggerListing,
} from "./trigger_admin.ts";

// The trigger contract (spec 001): start(), stop(), waitForNext() and the events they yield.
export { type Trigger, TriggerCancelledError, type TriggerEvent } from "./types.ts";

// Producers shared between the code that emits and the triggers that listen.
export {
  type BusEvent,
  type BusEventHandler,
  type BusEventInput,
  EventBus,
  type EventBusOptions,
} from "./event_bus.ts";
export {
  type BrokerMessage,
  MessageBroker,
  type MessageBrokerOptions,
  type MessageHandler,
  type PublishOptions,
} from "./message_broker.ts";

// Triggers constructed directly (spec 001, "Direct construction"), with their options and payloads.
export { CronTrigger, type CronTriggerOptions, type CronTriggerPayload } from "./cron_trigger.ts";
export { EventTrigger, type EventTriggerOptions, type EventTriggerPayload } from "./event_trigger.ts";
export { MessageTrigger, type MessageTriggerOptions, type MessageTriggerPayload } from "./message_trigger.ts";
export {
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_STOP_GRACE_MS,
  WEBHOOK_TIMESTAMP_HEADER,
  type WebhookHandler,
  type WebhookRequestInfo,
  WebhookTrigger,
  type WebhookTriggerOptions,
} from "./webhook_trigger.ts";
export {
  type FileEventType,
  type FileWatchPayload,
  FileWatchTrigger,
  type FileWatchTriggerOptions,
} from "./file_watch_trigger.ts";
