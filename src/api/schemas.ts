/**
 * Zod schemas of the control API's bodies, used for the OpenAPI document.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { PROCESS_STATES, type ProcessState } from "../runtime/mod.ts";

/** Process name rule. */
export const NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/** The error envelope. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string().openapi({ example: "PROCESS_NOT_FOUND" }),
    message: z.string(),
    error_id: z.string().optional().openapi({ description: "Links the answer to the server log line." }),
    details: z.array(z.object({ field: z.string(), expected: z.string() })).optional(),
  }),
}).openapi("ErrorBody");

/** A process state. */
export const StateSchema = z.enum(PROCESS_STATES as [ProcessState, ...ProcessState[]]).openapi(
  "ProcessState",
);

/** `{name, state, process_id}`. */
export const ProcessSummarySchema = z.object({
  name: z.string(),
  state: StateSchema,
  process_id: z.string(),
}).openapi("ProcessSummary");

/** The status body (capability parts may add keys). */
export const ProcessStatusSchema = z.object({
  name: z.string(),
  process_id: z.string(),
  state: StateSchema,
  source: z.enum(["api", "manifest", "library"]),
  created_at: z.number().openapi({ description: "Epoch seconds." }),
  started_at: z.number().nullable(),
  uptime_seconds: z.number().nullable(),
  last_activity_at: z.number().nullable(),
  counters: z.object({
    starts: z.number().int(),
    stops: z.number().int(),
    restarts: z.number().int(),
    start_failures: z.number().int(),
  }),
  trigger_count: z.number().int(),
  journal: z.object({ level: z.string(), backend: z.string() }).nullable(),
  features: z.object({
    inbox: z.boolean(),
    budget: z.boolean(),
    health: z.boolean(),
    mission: z.boolean(),
    secrets: z.boolean(),
  }),
}).catchall(z.unknown()).openapi("ProcessStatus");

/** Path parameter `{name}`. */
export const NameParamSchema = z.object({
  name: z.string().openapi({ param: { name: "name", in: "path" }, example: "reporter" }),
});

/** The deploy body. */
export const DeployBodySchema = z.object({
  name: z.string().regex(NAME_PATTERN),
  config: z.record(z.string(), z.unknown()).openapi({
    description: "A ProcessConfig (see the README's config reference); unknown fields are refused.",
  }),
  start: z.boolean().optional().openapi({ description: "Start after deploying. Default false." }),
}).openapi("DeployRequest");

/** The deploy answer. */
export const DeployAnswerSchema = z.object({
  name: z.string(),
  process_id: z.string(),
  state: StateSchema,
  created_at: z.number(),
}).openapi("DeployAnswer");

/** `{name, state}`. */
export const StateAnswerSchema = z.object({ name: z.string(), state: StateSchema }).openapi("StateAnswer");

/** A journal entry as answered. */
export const JournalEntrySchema = z.object({
  entry_id: z.string(),
  entry_type: z.string(),
  timestamp: z.string().openapi({ description: "ISO 8601 UTC." }),
  data: z.record(z.string(), z.unknown()),
}).openapi("JournalEntry");

/** JSON answer helper for route definitions. */
export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

/** The error answers most routes share. */
export function errorResponses(...statuses: number[]) {
  const out: Record<number, ReturnType<typeof jsonContent>> = {};
  for (const status of statuses) out[status] = jsonContent(ErrorBodySchema, "Error");
  return out;
}
