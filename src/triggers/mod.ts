/**
 * Triggers: what wakes agent processes. Cron schedules, webhooks (with HMAC signatures), file watches,
 * an in-process event bus and a message broker with wildcard topics. Each trigger has its own bounded
 * queue; {@linkcode createTriggersPart} plugs them into every process of a runtime, feeding the
 * process queue that `concurrency` workers drain.
 *
 * @example
 * ```ts
 * import { AgentRuntime, createTriggersPart, EventBus } from "@agentry/agentry";
 *
 * const eventBus = new EventBus();
 * const runtime = new AgentRuntime({
 *   parts: [createTriggersPart({ eventBus })],
 *   invoker: (run) => {
 *     console.log("woken by", run.event.trigger_type, run.event.payload);
 *     return Promise.resolve({ response: "done" });
 *   },
 * });
 * await runtime.deploy("watcher", { triggers: [{ type: "event", event_type: "order.created" }] } as never, {
 *   start: true,
 * });
 * eventBus.emit({ event_type: "order.created", source: "shop", data: { id: 7 } });
 * ```
 *
 * @module
 */

export { STOP_KEY, type Trigger, TriggerCancelledError, type TriggerEvent } from "./types.ts";
export { TriggerBase, type TriggerBaseOptions } from "./trigger_base.ts";
export { SubscriptionTrigger } from "./subscription_trigger.ts";
export { BoundedQueue, QueueAbortedError } from "../_util/bounded_queue.ts";
export {
  CRON_TRIGGER_CAPACITY,
  CronTrigger,
  type CronTriggerOptions,
  type CronTriggerPayload,
  defaultCronTriggerId,
} from "./cron_trigger.ts";
export {
  ANY_EVENT_TYPE,
  type BusEvent,
  type BusEventHandler,
  type BusEventInput,
  EventBus,
  type EventBusOptions,
} from "./event_bus.ts";
export {
  EVENT_TRIGGER_CAPACITY,
  EventTrigger,
  type EventTriggerOptions,
  type EventTriggerPayload,
} from "./event_trigger.ts";
export {
  type BrokerMessage,
  isValidTopic,
  isValidTopicPattern,
  MessageBroker,
  type MessageBrokerOptions,
  type MessageHandler,
  type PublishOptions,
  topicMatches,
} from "./message_broker.ts";
export {
  MESSAGE_TRIGGER_CAPACITY,
  MessageTrigger,
  type MessageTriggerOptions,
  type MessageTriggerPayload,
} from "./message_trigger.ts";
export {
  WEBHOOK_MAX_BODY_BYTES,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookHandler,
  type WebhookRequestInfo,
  WebhookTrigger,
  type WebhookTriggerOptions,
} from "./webhook_trigger.ts";
export {
  FILE_EVENT_TYPES,
  type FileEventType,
  type FileWatchPayload,
  FileWatchTrigger,
  type FileWatchTriggerOptions,
} from "./file_watch_trigger.ts";
export { globMatcher, globToRegExp, matchesGlob } from "./glob.ts";
export { maskTriggerConfig, parseLegacyTriggerId, stableTriggerIds, triggerDigest } from "./trigger_ids.ts";
export { buildTrigger, type BuildTriggerOptions, type TriggerSources } from "./build_trigger.ts";
export {
  createTriggersPart,
  TRIGGERS_PART,
  type TriggerSource,
  TriggersPart,
  type TriggersPartOptions,
} from "./triggers_part.ts";
export {
  addTrigger,
  listTriggers,
  removeTrigger,
  type TriggerChange,
  type TriggerListing,
} from "./trigger_admin.ts";
