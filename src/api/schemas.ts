/**
 * Zod schemas of the control API's bodies, used for the OpenAPI document. Every answer schema is proven
 * at compile time (`exactly`) to be the type the code answers with and the typed client returns: the
 * runtime's type where the runtime has one (`ProcessStatus`, `ProcessSummary`, `RuntimeStatus`), else
 * the client's answer type. A field added on one side only fails `deno check`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { exactly } from "../_util/schema_proof.ts";
import {
  type Anomaly,
  ANOMALY_TYPES,
  type AnomalyType,
  type HealthStatus,
  PROCESS_STATES,
  type ProcessState,
  type ProcessStatus,
  type ProcessSummary,
  type RunsStatus,
  type RuntimeStatus,
} from "../runtime/mod.ts";
import type { RuntimeClient } from "./client.ts";
import { BudgetStatusSchema } from "./live_patch_schemas.ts";
import { MissionStatusSchema } from "./mission_schemas.ts";
import type {
  ContextAnswer,
  DeployAnswer,
  JournalAnswer,
  JournalEntryAnswer,
  SecretRotatedAnswer,
  SecretsListAnswer,
  SecretsRevokedAnswer,
  TriggerAddedAnswer,
  TriggerListingAnswer,
  TriggerRemovedAnswer,
} from "./client_types.ts";

/** A schema whose output and input are `T` (answers have no defaults or transforms). */
type AnswerSchema<T> = z.ZodType<T, T>;

/** What the typed client's method `M` resolves to. */
type ClientAnswer<M extends keyof RuntimeClient> = RuntimeClient[M] extends
  (...args: never[]) => Promise<infer A> ? A
  : never;

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
export const ProcessSummarySchema: AnswerSchema<ProcessSummary> = exactly(
  z.object({
    name: z.string(),
    state: StateSchema,
    process_id: z.string(),
  }).openapi("ProcessSummary"),
);

const count = () => z.number().int();

/** Run and delivery counters; the delivery ones only while started. */
const RunsStatusSchema: AnswerSchema<RunsStatus> = exactly(z.object({
  invocations: count(),
  dead_letters: count(),
  queue_size: count().optional(),
  queue_capacity: count().optional(),
  workers: count().optional(),
  in_flight: count().optional(),
  runs_succeeded: count().optional(),
  runs_failed: count().optional(),
  consecutive_failures: count().optional(),
  pending_retries: count().optional(),
  usage: z.object({
    today: z.object({ date: z.string(), runs: count(), input_tokens: count(), output_tokens: count() }),
    total: z.object({ runs: count(), input_tokens: count(), output_tokens: count() }),
  }).openapi({ description: "Tokens and runs today (UTC) and since deploy." }),
}));

// --- Health (issue 13) ---
/** One anomaly (`GET /processes/{name}/health/anomalies`, and `health.last_anomaly` in the status body). */
export const AnomalySchema: AnswerSchema<Anomaly> = exactly(
  z.object({
    type: z.enum(ANOMALY_TYPES as [AnomalyType, ...AnomalyType[]]),
    description: z.string(),
    timestamp: z.string().openapi({ description: "ISO 8601 UTC time it was detected." }),
    run_id: z.string().openapi({
      description: "The run it was detected in (see GET /processes/{name}/runs).",
    }),
    details: z.record(z.string(), z.unknown()).openapi({ description: "Tool names and counts." }),
  }).openapi("Anomaly"),
);

const HealthStatusSchema: AnswerSchema<HealthStatus> = exactly(
  z.object({ enabled: z.boolean(), anomalies: count(), last_anomaly: AnomalySchema.nullable() }).openapi({
    description: "Health: whether it is on, anomalies held (0 when off) and the newest one.",
  }),
);
// --- end health ---

/** The status body (capability parts may add keys). */
export const ProcessStatusSchema: AnswerSchema<ProcessStatus> = exactly(
  z.object({
    name: z.string(),
    process_id: z.string(),
    state: StateSchema,
    source: z.enum(["api", "manifest", "library"]),
    created_at: z.number().openapi({ description: "Epoch seconds." }),
    started_at: z.number().nullable(),
    uptime_seconds: z.number().nullable(),
    last_activity_at: z.number().nullable(),
    counters: z.object({
      starts: count(),
      stops: count(),
      restarts: count(),
      start_failures: count(),
    }),
    runs: RunsStatusSchema,
    trigger_count: count(),
    journal: z.object({ level: z.string(), backend: z.string() }).nullable(),
    features: z.object({
      inbox: z.boolean(),
      budget: z.boolean(),
      health: z.boolean(),
      mission: z.boolean(),
      secrets: z.boolean(),
    }),
    secrets: z.object({ enabled: z.boolean(), active: count() }).openapi({
      description: "Secret scoping, and the number of secrets holding a value that has not expired.",
    }),
    inbox: z.object({ enabled: z.boolean(), pending: count(), questions: count() }).openapi({
      description: "The inbox: whether it is on, items held, and unanswered questions among them.",
    }),
    health: HealthStatusSchema, // Health (issue 13)
    budget: BudgetStatusSchema, // Budget (issue 13)
    mission: MissionStatusSchema, // Mission (issue 13)
  }).catchall(z.unknown()).openapi("ProcessStatus"),
);

/** `GET /runtime/status`. */
export const RuntimeStatusSchema: AnswerSchema<RuntimeStatus> = exactly(
  z.object({
    process_count: count(),
    processes: z.record(z.string(), ProcessStatusSchema),
  }).openapi("RuntimeStatus"),
);

/** `GET /health`. */
export const HealthSchema: AnswerSchema<ClientAnswer<"health">> = exactly(
  z.object({ status: z.literal("healthy"), process_count: count() }).openapi("Health"),
);

/** `POST /runtime/start-all`. */
export const StartedAllSchema: AnswerSchema<ClientAnswer<"startAll">> = exactly(
  z.object({ status: z.literal("started") }),
);

/** `POST /runtime/stop-all`. */
export const StoppedAllSchema: AnswerSchema<ClientAnswer<"stopAll">> = exactly(
  z.object({ status: z.literal("stopped") }),
);

/** `POST /runtime/shutdown`. */
export const ShuttingDownSchema: AnswerSchema<ClientAnswer<"shutdown">> = exactly(
  z.object({ status: z.literal("shutting_down") }),
);

/** `GET /processes`. */
export const ProcessListSchema: AnswerSchema<ClientAnswer<"listProcesses">> = exactly(
  z.object({ processes: z.array(ProcessSummarySchema), total: count() }),
);

/** Path parameter `{name}`. */
export const NameParamSchema = z.object({
  name: z.string().openapi({ param: { name: "name", in: "path" }, example: "reporter" }),
});

/** The deploy body. */
export const DeployBodySchema = z.object({
  name: z.string().regex(NAME_PATTERN),
  config: z.record(z.string(), z.unknown()).openapi({
    description: "A ProcessConfig (see docs/config.md); unknown fields are refused.",
  }),
  start: z.boolean().optional().openapi({ description: "Start after deploying. Default false." }),
}).openapi("DeployRequest");

/** The deploy answer. */
export const DeployAnswerSchema: AnswerSchema<DeployAnswer> = exactly(
  z.object({
    name: z.string(),
    process_id: z.string(),
    state: StateSchema,
    created_at: z.number(),
  }).openapi("DeployAnswer"),
);

/** `{name, state}`: start, stop and restart. */
export const StateAnswerSchema: AnswerSchema<ClientAnswer<"startProcess">> = exactly(
  z.object({ name: z.string(), state: StateSchema }).openapi("StateAnswer"),
);

/** Suspend. */
export const SuspendedSchema: AnswerSchema<ClientAnswer<"suspendProcess">> = exactly(
  z.object({ name: z.string(), suspended: z.literal(true), state: StateSchema }),
);

/** Resume. */
export const ResumedSchema: AnswerSchema<ClientAnswer<"resumeProcess">> = exactly(
  z.object({ name: z.string(), resumed: z.literal(true), state: StateSchema }),
);

/** A journal entry as answered. */
export const JournalEntrySchema: AnswerSchema<JournalEntryAnswer> = exactly(
  z.object({
    entry_id: z.string(),
    entry_type: z.string(),
    timestamp: z.string().openapi({ description: "ISO 8601 UTC." }),
    data: z.record(z.string(), z.unknown()),
  }).openapi("JournalEntry"),
);

/** `GET /processes/{name}/journal`. */
export const JournalAnswerSchema: AnswerSchema<JournalAnswer> = exactly(
  z.object({
    name: z.string(),
    entries: z.array(JournalEntrySchema),
    count: count().optional(),
    journal_enabled: z.boolean(),
  }).openapi("JournalAnswer"),
);

/** One entry of a trigger listing. */
export const TriggerListingSchema: AnswerSchema<TriggerListingAnswer> = exactly(
  z.object({
    id: z.string(),
    type: z.string(),
    source: z.enum(["config", "dynamic"]),
    config: z.record(z.string(), z.unknown()).optional().openapi({ description: "Secrets masked as ***." }),
    live: z.boolean(),
  }).openapi("TriggerListing"),
);

/** `GET /processes/{name}/triggers`. */
export const TriggerListSchema: AnswerSchema<ClientAnswer<"listTriggers">> = exactly(
  z.object({ name: z.string(), triggers: z.array(TriggerListingSchema), count: z.number() }),
);

const ChangeFields = { live: z.boolean(), effective_from: z.enum(["immediate", "next_start"]) };

/** `POST /processes/{name}/triggers`. */
export const TriggerAddedSchema: AnswerSchema<TriggerAddedAnswer> = exactly(
  z.object({
    name: z.string(),
    trigger_added: z.literal(true),
    trigger_id: z.string(),
    trigger_type: z.string(),
    ...ChangeFields,
  }),
);

/** `DELETE /processes/{name}/triggers/{trigger_id}`. */
export const TriggerRemovedSchema: AnswerSchema<TriggerRemovedAnswer> = exactly(
  z.object({
    name: z.string(),
    trigger_removed: z.string(),
    ...ChangeFields,
    warning: z.string().optional(),
  }),
);

/** `GET|PATCH /processes/{name}/context`. */
export const ContextAnswerSchema: AnswerSchema<ContextAnswer> = exactly(
  z.object({
    name: z.string(),
    state: z.record(z.string(), z.unknown()),
    writable_keys: z.array(z.string()).nullable().openapi({
      description: "Null when every key is writable.",
    }),
    all_keys_writable: z.boolean(),
  }).openapi("Context"),
);

/** `GET /processes/{name}/secrets`: metadata only. */
export const SecretsListSchema: AnswerSchema<SecretsListAnswer> = exactly(
  z.object({
    name: z.string(),
    enabled: z.literal(true),
    secrets: z.array(
      z.object({
        name: z.string(),
        active: z.boolean(),
        source: z.enum(["literal", "env"]),
        expires_at: z.number().nullable().openapi({ description: "Epoch seconds; null without a ttl." }),
        rotated_at: z.number().nullable().openapi({ description: "Epoch seconds of the last rotation." }),
      }).openapi("SecretMetadata"),
    ),
    active_count: count(),
  }).openapi("SecretsList"),
);

/** `PATCH /processes/{name}/secrets/{secret_name}`. */
export const SecretRotatedSchema: AnswerSchema<SecretRotatedAnswer> = exactly(
  z.object({
    name: z.string(),
    secret_name: z.string(),
    rotated: z.literal(true),
    expires_at: z.number().nullable(),
  }),
);

/** `DELETE /processes/{name}/secrets`. */
export const SecretsRevokedSchema: AnswerSchema<SecretsRevokedAnswer> = exactly(
  z.object({ name: z.string(), secrets_revoked: z.literal(true) }),
);

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
