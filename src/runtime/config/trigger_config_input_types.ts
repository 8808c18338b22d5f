/**
 * Types of the `triggers` config section as written: the trigger's own required fields, every other field
 * optional. See `trigger_config_types.ts` for the resolved shapes.
 *
 * @module
 */

import type { WatchEvent } from "./trigger_config_types.ts";

/** A cron trigger as written: fires on a schedule. */
export interface CronTriggerConfigInput {
  /** Trigger type. */
  type: "cron";
  /** Schedule: 5 cron fields (6 with seconds first), such as "0 9 * * 1-5", or a nickname like "@hourly". */
  cron_expression: string;
  /**
   * IANA time zone the schedule is read in, such as "Europe/Paris"; null for UTC.
   * @default null
   */
  cron_timezone?: string | null;
  /**
   * Free-form settings kept with the trigger; credential-like keys are masked in listings.
   * @default {}
   */
  custom_config?: Record<string, unknown>;
}

/** A webhook trigger as written: an HTTP endpoint that turns each POST into an event. */
export interface WebhookTriggerConfigInput {
  /** Trigger type. */
  type: "webhook";
  /**
   * URL path that accepts the POSTs: starts with "/", no spaces, query or fragment.
   * @default "/webhook"
   */
  webhook_path?: string;
  /**
   * TCP port the endpoint listens on. An integer from 1 to 65535.
   * @default 9090
   */
  webhook_port?: number;
  /**
   * Host name or address the endpoint binds to.
   * @default "127.0.0.1"
   */
  webhook_host?: string;
  /**
   * Shared secret of at least 16 characters. When set, each POST must carry
   * `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the body>`.
   */
  hmac_secret?: string;
  /**
   * Free-form settings kept with the trigger; credential-like keys are masked in listings.
   * @default {}
   */
  custom_config?: Record<string, unknown>;
}

/** A file-watch trigger as written: fires when matching files are created or modified. */
export interface FileWatchTriggerConfigInput {
  /** Trigger type. */
  type: "file_watch";
  /** Directory to watch. For API deploys it must lie inside the runtime's data directory. */
  watch_path: string;
  /**
   * Glob patterns a file name must match. A non-empty list.
   * @default ["*"]
   */
  watch_patterns?: string[];
  /**
   * File events that fire the trigger. A non-empty list.
   * @default ["created", "modified"]
   */
  watch_events?: WatchEvent[];
  /**
   * Free-form settings kept with the trigger; credential-like keys are masked in listings.
   * @default {}
   */
  custom_config?: Record<string, unknown>;
}

/** An event trigger as written: fires on event-bus events of one type. */
export interface EventTriggerConfigInput {
  /** Trigger type. */
  type: "event";
  /** Event type to react to. A non-empty string. */
  event_type: string;
  /** Only react to events from this source. When absent, any source. */
  event_source?: string;
  /**
   * Free-form settings kept with the trigger; credential-like keys are masked in listings.
   * @default {}
   */
  custom_config?: Record<string, unknown>;
}

/** A message trigger as written: fires on message-broker messages whose topic matches. */
export interface MessageTriggerConfigInput {
  /** Trigger type. */
  type: "message";
  /** Topic to match; `*` is a wildcard, as in "reports.*". A non-empty string. */
  topic: string;
  /**
   * Free-form settings kept with the trigger; credential-like keys are masked in listings.
   * @default {}
   */
  custom_config?: Record<string, unknown>;
}

/** A trigger as written (narrow on `type`). */
export type TriggerConfigInput =
  | CronTriggerConfigInput
  | WebhookTriggerConfigInput
  | FileWatchTriggerConfigInput
  | EventTriggerConfigInput
  | MessageTriggerConfigInput;
