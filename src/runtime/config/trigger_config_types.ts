/**
 * Types of the `triggers` config section, resolved: what wakes a process. Each trigger type has its own
 * fields; `type` tells them apart, and a field of another type is refused. The shapes as written are in
 * `trigger_config_input_types.ts`.
 *
 * @module
 */

/** A trigger type name. */
export type TriggerType = "cron" | "webhook" | "file_watch" | "event" | "message";

/** A file event a file-watch trigger reacts to. */
export type WatchEvent = "created" | "modified";

/** A cron trigger with every default filled. */
export interface CronTriggerConfig {
  /** Trigger type. */
  type: "cron";
  /** Schedule: 5 cron fields (6 with seconds first), such as "0 9 * * 1-5", or a nickname like "@hourly". */
  cron_expression: string;
  /**
   * IANA time zone the schedule is read in, such as "Europe/Paris"; null for UTC.
   * @default null
   */
  cron_timezone: string | null;
  /**
   * Free-form settings kept with the trigger; credential-like keys are masked in listings.
   * @default {}
   */
  custom_config: Record<string, unknown>;
}

/** A webhook trigger with every default filled. */
export interface WebhookTriggerConfig {
  /** Trigger type. */
  type: "webhook";
  /**
   * URL path that accepts the POSTs: starts with "/", no spaces, query or fragment.
   * @default "/webhook"
   */
  webhook_path: string;
  /**
   * TCP port the endpoint listens on. An integer from 1 to 65535.
   * @default 9090
   */
  webhook_port: number;
  /**
   * Host name or address the endpoint binds to.
   * @default "127.0.0.1"
   */
  webhook_host: string;
  /**
   * Shared secret of at least 16 characters. When set, each POST must carry
   * `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the body>`.
   */
  hmac_secret?: string;
  /**
   * Free-form settings kept with the trigger; credential-like keys are masked in listings.
   * @default {}
   */
  custom_config: Record<string, unknown>;
}

/** A file-watch trigger with every default filled. */
export interface FileWatchTriggerConfig {
  /** Trigger type. */
  type: "file_watch";
  /** Directory to watch. For API deploys it must lie inside the runtime's data directory. */
  watch_path: string;
  /**
   * Glob patterns a file name must match. A non-empty list.
   * @default ["*"]
   */
  watch_patterns: string[];
  /**
   * File events that fire the trigger. A non-empty list.
   * @default ["created", "modified"]
   */
  watch_events: WatchEvent[];
  /**
   * Free-form settings kept with the trigger; credential-like keys are masked in listings.
   * @default {}
   */
  custom_config: Record<string, unknown>;
}

/** An event trigger with every default filled. */
export interface EventTriggerConfig {
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
  custom_config: Record<string, unknown>;
}

/** A message trigger with every default filled. */
export interface MessageTriggerConfig {
  /** Trigger type. */
  type: "message";
  /** Topic to match; `*` is a wildcard, as in "reports.*". A non-empty string. */
  topic: string;
  /**
   * Free-form settings kept with the trigger; credential-like keys are masked in listings.
   * @default {}
   */
  custom_config: Record<string, unknown>;
}

/** A trigger with every default filled (narrow on `type`). */
export type TriggerConfig =
  | CronTriggerConfig
  | WebhookTriggerConfig
  | FileWatchTriggerConfig
  | EventTriggerConfig
  | MessageTriggerConfig;
