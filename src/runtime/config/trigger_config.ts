/**
 * TriggerConfig: the `triggers` config section, what wakes a process. Each trigger type has its own
 * strict shape, told apart by `type`: a field of another type is refused, and defaults are filled only for
 * the trigger's own fields.
 *
 * @module
 */

import { hasEnvReference } from "./env_reference.ts";
import { z } from "zod";
import { CRON_WORDS, cronProblem, isTimeZone } from "./_cron.ts";
import {
  anyObject,
  integer,
  list,
  nonEmptyString,
  oneOf,
  oneOfWords,
  pattern,
  type Resolved,
  strictObject,
} from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";

/** A trigger type name. */
export type TriggerType = "cron" | "webhook" | "file_watch" | "event" | "message";

/** A file event a file-watch trigger reacts to. */
export type WatchEvent = "created" | "modified";

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
   * Events the trigger's own queue holds until the process queue takes them; when it is full a firing is dropped with a warning. An integer from 1 to
   * 100000; absent: 10.
   */
  queue_capacity?: number;
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
   * Replay protection, in seconds (needs `hmac_secret`): when above 0, each POST must also carry
   * `X-Webhook-Timestamp: <Unix time in seconds>` no further than this from the runtime's clock, the
   * signature covers `<timestamp>.<raw body>`, and a signature already accepted within the window is
   * refused (409). An integer from 0 to 3600; 0 or absent: off (the signature covers the body alone).
   */
  signature_tolerance?: number;
  /**
   * Events the trigger's own queue holds until the process queue takes them; when it is full a POST is answered 503 `queue full`. An integer from 1 to
   * 100000; absent: 1000.
   */
  queue_capacity?: number;
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
   * Events the trigger's own queue holds until the process queue takes them; when it is full a file event is dropped with a warning. An integer from 1 to
   * 100000; absent: 100.
   */
  queue_capacity?: number;
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
   * Events the trigger's own queue holds until the process queue takes them; when it is full an event is dropped with a warning. An integer from 1 to
   * 100000; absent: 100.
   */
  queue_capacity?: number;
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
   * Events the trigger's own queue holds until the process queue takes them; when it is full a message is dropped with a warning. An integer from 1 to
   * 100000; absent: 100.
   */
  queue_capacity?: number;
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

/** A cron trigger with every default filled. */
export type CronTriggerConfig = Resolved<CronTriggerConfigInput, "queue_capacity">;

/** A webhook trigger with every default filled (`hmac_secret`, `signature_tolerance` and `queue_capacity` have none). */
export type WebhookTriggerConfig = Resolved<
  WebhookTriggerConfigInput,
  "hmac_secret" | "signature_tolerance" | "queue_capacity"
>;

/** A file-watch trigger with every default filled. */
export type FileWatchTriggerConfig = Resolved<FileWatchTriggerConfigInput, "queue_capacity">;

/** An event trigger with every default filled (`event_source` has none). */
export type EventTriggerConfig = Resolved<EventTriggerConfigInput, "event_source" | "queue_capacity">;

/** A message trigger with every default filled. */
export type MessageTriggerConfig = Resolved<MessageTriggerConfigInput, "queue_capacity">;

/** A trigger with every default filled (narrow on `type`). */
export type TriggerConfig =
  | CronTriggerConfig
  | WebhookTriggerConfig
  | FileWatchTriggerConfig
  | EventTriggerConfig
  | MessageTriggerConfig;

/** Trigger types. */
export const TRIGGER_TYPES = [
  "cron",
  "webhook",
  "file_watch",
  "event",
  "message",
] as const satisfies readonly TriggerType[];

/** File events a file-watch trigger reacts to. */
export const WATCH_EVENTS = ["created", "modified"] as const satisfies readonly WatchEvent[];

/**
 * A trigger's own queue capacity. No schema default: a default would enter the resolved config and change
 * every trigger's stable id; the trigger applies its type's default when absent.
 */
function queueCapacity(): z.ZodOptional<z.ZodNumber> {
  return integer({ min: 1, max: 100_000 }).optional();
}

function customConfig(): z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodUnknown>> {
  return anyObject("an object of trigger-specific settings").default(() => ({}));
}

const cronExpression = z.string({ error: CRON_WORDS }).superRefine((expression, ctx) => {
  const problem = cronProblem(expression);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
});

const TIMEZONE_WORDS = 'an IANA time zone name such as "Europe/Paris", or null for UTC';

/** A cron trigger: fires on a schedule (in `cron_timezone`, UTC when null). */
const cronTrigger = strictObject({
  type: z.literal("cron"),
  cron_expression: cronExpression,
  cron_timezone: z.string({ error: TIMEZONE_WORDS }).refine(isTimeZone, { error: TIMEZONE_WORDS }).nullable()
    .default(null),
  queue_capacity: queueCapacity(),
  custom_config: customConfig(),
}, { context: "a cron trigger" });

/** A webhook trigger: an HTTP endpoint that turns each POST into an event. */
const webhookTrigger = strictObject({
  type: z.literal("webhook"),
  webhook_path: pattern(/^\/[^\s?#]*$/, 'a URL path starting with "/" (no spaces, query or fragment)')
    .default("/webhook"),
  webhook_port: integer({ min: 1, max: 65535 }).default(9090),
  webhook_host: nonEmptyString("a host name or address").default("127.0.0.1"),
  hmac_secret: z.string({ error: "a string of at least 16 characters, or a ${VAR} reference to one" })
    .superRefine((value, ctx) => {
      if (value.length >= 16 || hasEnvReference(value)) return;
      // The length only, never the secret: a resolved ${VAR} is checked again at deploy and start.
      ctx.addIssue({ code: "custom", message: `must be at least 16 characters (got ${value.length})` });
    })
    .optional(),
  // No default: a default would enter the resolved config and change every webhook's stable id.
  signature_tolerance: integer({ min: 0, max: 3600 }).optional(),
  queue_capacity: queueCapacity(),
  custom_config: customConfig(),
}, { context: "a webhook trigger" }).superRefine((webhook, ctx) => {
  if ((webhook.signature_tolerance ?? 0) > 0 && webhook.hmac_secret === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["signature_tolerance"],
      message: "0 or absent without hmac_secret (a timestamped signature needs a secret)",
    });
  }
});

/** A file-watch trigger: fires when matching files under `watch_path` are created or modified. */
const fileWatchTrigger = strictObject({
  type: z.literal("file_watch"),
  watch_path: nonEmptyString("a directory path"),
  watch_patterns: list(nonEmptyString("a glob pattern"), "a non-empty list of glob patterns", 1)
    .default(() => ["*"]),
  watch_events: list(oneOf(WATCH_EVENTS), 'a non-empty list of file events ("created", "modified")', 1)
    .default(() => [...WATCH_EVENTS]),
  queue_capacity: queueCapacity(),
  custom_config: customConfig(),
}, { context: "a file_watch trigger" });

/** An event trigger: fires on EventBus events of `event_type` (from `event_source` when set). */
const eventTrigger = strictObject({
  type: z.literal("event"),
  event_type: nonEmptyString("a non-empty event type"),
  event_source: nonEmptyString("a non-empty source name").optional(),
  queue_capacity: queueCapacity(),
  custom_config: customConfig(),
}, { context: "an event trigger" });

/** Dot-separated segments, none empty (`a..b`, `.a` and `a.` are refused at deploy, not at start). */
const TOPIC_PATTERN = /^[^.]+(\.[^.]+)*$/;

/** A message trigger: fires on MessageBroker messages whose topic matches `topic` (`*` wildcards). */
const messageTrigger = strictObject({
  type: z.literal("message"),
  topic: pattern(TOPIC_PATTERN, 'a topic of non-empty dot-separated segments such as "reports.*"'),
  queue_capacity: queueCapacity(),
  custom_config: customConfig(),
}, { context: "a message trigger" });

/** Any trigger, told apart by `type`. */
export const TriggerConfigSchema: z.ZodType<TriggerConfig, TriggerConfigInput> = exactly(
  z.discriminatedUnion("type", [
    cronTrigger,
    webhookTrigger,
    fileWatchTrigger,
    eventTrigger,
    messageTrigger,
  ], {
    error: (issue) => issue.code === "invalid_union" ? oneOfWords(TRIGGER_TYPES) : "a trigger object",
  }),
);

/** A cron trigger. */
export const CronTriggerSchema: z.ZodType<CronTriggerConfig, CronTriggerConfigInput> = exactly(cronTrigger);
/** A webhook trigger. */
export const WebhookTriggerSchema: z.ZodType<WebhookTriggerConfig, WebhookTriggerConfigInput> = exactly(
  webhookTrigger,
);
/** A file-watch trigger. */
export const FileWatchTriggerSchema: z.ZodType<FileWatchTriggerConfig, FileWatchTriggerConfigInput> = exactly(
  fileWatchTrigger,
);
/** An event trigger. */
export const EventTriggerSchema: z.ZodType<EventTriggerConfig, EventTriggerConfigInput> = exactly(
  eventTrigger,
);
/** A message trigger. */
export const MessageTriggerSchema: z.ZodType<MessageTriggerConfig, MessageTriggerConfigInput> = exactly(
  messageTrigger,
);

/** The `triggers` list (at most 100). */
export const TriggersConfigSchema: z.ZodType<TriggerConfig[], TriggerConfigInput[]> = exactly(
  list(TriggerConfigSchema, "a list of at most 100 trigger objects").max(100),
);
