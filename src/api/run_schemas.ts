/**
 * Schemas of the run routes (ours, beyond spec 000): the run list, one run with its steps, the
 * instructions patch, and the progress events of the run stream.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { exactly } from "../_util/schema_proof.ts";
import type { RunDetail, RunRecord, RunStep } from "../runtime/mod.ts";
import type { InstructionsAnswer, RunListAnswer } from "./client_types.ts";

type AnswerSchema<T> = z.ZodType<T, T>;

const count = () => z.number().int();
const usage = () => z.object({ input_tokens: count(), output_tokens: count() });

/** One run, as listed. */
export const RunRecordSchema: AnswerSchema<RunRecord> = exactly(
  z.object({
    run_id: z.string(),
    invocation: count(),
    attempt: count(),
    event_id: z.string(),
    trigger_id: z.string(),
    trigger_type: z.string(),
    status: z.enum(["running", "succeeded", "failed", "blocked"]),
    started_at: z.number().openapi({ description: "Epoch seconds." }),
    ended_at: z.number().nullable(),
    duration_ms: z.number().nullable(),
    model_turns: count(),
    tool_calls: count(),
    usage: usage(),
    reply: z.string().nullable(),
    error: z.string().nullable(),
  }).openapi("RunRecord"),
);

/** One step of a run. */
export const RunStepSchema: AnswerSchema<RunStep> = exactly(
  z.object({
    index: count(),
    type: z.enum(["model_turn", "tool_call", "tool_result", "model_retry", "note"]),
    at: z.number(),
    data: z.record(z.string(), z.unknown()),
  }).openapi("RunStep"),
);

/** `GET /processes/{name}/runs`. */
export const RunListSchema: AnswerSchema<RunListAnswer> = exactly(
  z.object({ name: z.string(), runs: z.array(RunRecordSchema), count: count() }).openapi("RunList"),
);

/** `GET /processes/{name}/runs/{run_id}`. */
export const RunDetailSchema: AnswerSchema<RunDetail> = exactly(
  RunRecordSchema.and(z.object({ steps: z.array(RunStepSchema), step_count: count() })).openapi("RunDetail"),
);

/** `PATCH /processes/{name}/instructions`. */
export const InstructionsAnswerSchema: AnswerSchema<InstructionsAnswer> = exactly(
  z.object({
    name: z.string(),
    instructions_updated: z.literal(true),
    live: z.literal(true),
    effective_from: z.enum(["next_invocation", "next_start"]),
  }),
);

/** Path parameters of one run. */
export const RunParamsSchema = z.object({
  name: z.string().openapi({ param: { name: "name", in: "path" } }),
  run_id: z.string().openapi({ param: { name: "run_id", in: "path" } }),
});
