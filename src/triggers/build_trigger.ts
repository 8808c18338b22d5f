/**
 * Building a trigger from its config.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import type { TriggerConfig } from "../runtime/mod.ts";
import { CronTrigger } from "./cron_trigger.ts";
import type { EventBus } from "./event_bus.ts";
import { EventTrigger } from "./event_trigger.ts";
import { FileWatchTrigger } from "./file_watch_trigger.ts";
import type { MessageBroker } from "./message_broker.ts";
import { MessageTrigger } from "./message_trigger.ts";
import type { Trigger, TriggerEvent } from "./types.ts";
import { WebhookTrigger } from "./webhook_trigger.ts";

/** What triggers of a runtime share. */
export interface TriggerSources {
  /** The bus event triggers subscribe to. */
  eventBus: EventBus;
  /** The broker message triggers subscribe to. */
  broker: MessageBroker;
}

/** Options for {@linkcode buildTrigger}. */
export interface BuildTriggerOptions {
  /** Id of the trigger. */
  triggerId: string;
  /** Shared bus and broker. */
  sources: TriggerSources;
  /** Logger for drops and failures. */
  logger?: Logger;
  /** For webhooks: a reason to refuse POSTs (503), e.g. while the process is failing. */
  accepting?: () => string | undefined;
  /** For webhooks: records each event durably before the 202 (see `PartContext.accept`). */
  accept?: (event: TriggerEvent) => Promise<void>;
}

/**
 * A new, not yet started trigger for a resolved trigger config; its queue holds `queue_capacity` events
 * (absent: the type's default).
 */
export function buildTrigger(config: TriggerConfig, options: BuildTriggerOptions): Trigger {
  const { triggerId, logger } = options;
  const capacity = config.queue_capacity;
  switch (config.type) {
    case "cron":
      return new CronTrigger({
        cronExpression: config.cron_expression,
        timezone: config.cron_timezone,
        capacity,
        triggerId,
        logger,
      });
    case "webhook":
      return new WebhookTrigger({
        path: config.webhook_path,
        port: config.webhook_port,
        host: config.webhook_host,
        hmacSecret: config.hmac_secret,
        signatureTolerance: config.signature_tolerance,
        capacity,
        triggerId,
        logger,
        accepting: options.accepting,
        accept: options.accept,
      });
    case "file_watch":
      return new FileWatchTrigger({
        watchPath: config.watch_path,
        patterns: config.watch_patterns,
        events: config.watch_events,
        capacity,
        triggerId,
        logger,
      });
    case "event":
      return new EventTrigger({
        eventBus: options.sources.eventBus,
        eventType: config.event_type,
        sourceFilter: config.event_source,
        capacity,
        triggerId,
        logger,
      });
    case "message":
      return new MessageTrigger({
        broker: options.sources.broker,
        topic: config.topic,
        capacity,
        triggerId,
        logger,
      });
  }
}
