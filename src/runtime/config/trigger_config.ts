/**
 * TriggerConfig: what wakes a process. One strict shape per trigger type: a field of another type is
 * refused, and defaults are filled only for the trigger's own fields.
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
  strictObject,
} from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";
import type {
  CronTriggerConfigInput,
  EventTriggerConfigInput,
  FileWatchTriggerConfigInput,
  MessageTriggerConfigInput,
  TriggerConfigInput,
  WebhookTriggerConfigInput,
} from "./trigger_config_input_types.ts";
import type {
  CronTriggerConfig,
  EventTriggerConfig,
  FileWatchTriggerConfig,
  MessageTriggerConfig,
  TriggerConfig,
  TriggerType,
  WatchEvent,
  WebhookTriggerConfig,
} from "./trigger_config_types.ts";

export type * from "./trigger_config_input_types.ts";
export type * from "./trigger_config_types.ts";

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
  custom_config: customConfig(),
}, { context: "a cron trigger" });

/** A webhook trigger: an HTTP endpoint that turns each POST into an event. */
const webhookTrigger = strictObject({
  type: z.literal("webhook"),
  webhook_path: pattern(/^\/[^\s?#]*$/, 'a URL path starting with "/" (no spaces, query or fragment)')
    .default("/webhook"),
  webhook_port: integer({ min: 1, max: 65535 }).default(9090),
  webhook_host: nonEmptyString("a host name or address").default("127.0.0.1"),
  hmac_secret: z.string({ error: "a string of at least 16 characters" })
    .refine((value) => value.length >= 16 || hasEnvReference(value), {
      error: "a string of at least 16 characters, or a ${VAR} reference to one",
    })
    .optional(),
  custom_config: customConfig(),
}, { context: "a webhook trigger" });

/** A file-watch trigger: fires when matching files under `watch_path` are created or modified. */
const fileWatchTrigger = strictObject({
  type: z.literal("file_watch"),
  watch_path: nonEmptyString("a directory path"),
  watch_patterns: list(nonEmptyString("a glob pattern"), "a non-empty list of glob patterns", 1)
    .default(() => ["*"]),
  watch_events: list(oneOf(WATCH_EVENTS), 'a non-empty list of file events ("created", "modified")', 1)
    .default(() => [...WATCH_EVENTS]),
  custom_config: customConfig(),
}, { context: "a file_watch trigger" });

/** An event trigger: fires on EventBus events of `event_type` (from `event_source` when set). */
const eventTrigger = strictObject({
  type: z.literal("event"),
  event_type: nonEmptyString("a non-empty event type"),
  event_source: nonEmptyString("a non-empty source name").optional(),
  custom_config: customConfig(),
}, { context: "an event trigger" });

/** A message trigger: fires on MessageBroker messages whose topic matches `topic` (`*` wildcards). */
const messageTrigger = strictObject({
  type: z.literal("message"),
  topic: nonEmptyString('a non-empty topic such as "reports.*"'),
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
