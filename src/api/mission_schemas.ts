/**
 * Schemas of the mission routes (issue 13) and of the `mission` key of the status body.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { exactly } from "../_util/schema_proof.ts";
import type { EscalationTarget, MissionConfig, MissionEvaluation, MissionStatus } from "../runtime/mod.ts";
import type { MissionAnswer, MissionPatchAnswer } from "./mission_types.ts";

type AnswerSchema<T> = z.ZodType<T, T>;

const STATES = ["pending", "active", "paused", "completed", "failed"] as const;

const EscalationSchema: AnswerSchema<EscalationTarget> = exactly(z.object({
  webhook_url: z.string().optional(),
  event_type: z.string().optional(),
  allow_private_network: z.boolean().optional(),
}));

/** A mission section. */
export const MissionSectionSchema: AnswerSchema<MissionConfig> = exactly(
  z.object({
    enabled: z.boolean(),
    objective: z.string(),
    success_criteria: z.string(),
    eval_model: z.string().nullable(),
    eval_every: z.number().int(),
    confidence_threshold: z.number(),
    timeout_hours: z.number(),
    max_invocations: z.number().int(),
    on_complete: z.enum(["stop", "suspend", "continue"]),
    escalation: EscalationSchema.nullable(),
  }).openapi("MissionConfig"),
);

/** One evaluation by the judge. */
export const MissionEvaluationSchema: AnswerSchema<MissionEvaluation> = exactly(
  z.object({
    evaluation: z.number().int(),
    invocation: z.number().int(),
    achieved: z.boolean(),
    confidence: z.number(),
    reasoning: z.string(),
    progress_summary: z.string(),
    model: z.string(),
    timestamp: z.string(),
  }).openapi("MissionEvaluation"),
);

/** `GET /processes/{name}/mission` and the fail, pause and resume answers. */
export const MissionAnswerSchema: AnswerSchema<MissionAnswer> = exactly(
  z.object({
    name: z.string(),
    state: z.enum(STATES),
    objective: z.string(),
    success_criteria: z.string(),
    invocation_count: z.number().int(),
    activated_at: z.string().nullable(),
    reason: z.string().nullable(),
    evaluations: z.array(MissionEvaluationSchema),
  }).openapi("Mission"),
);

/** Answer of the mission patch. */
export const MissionPatchAnswerSchema: AnswerSchema<MissionPatchAnswer> = exactly(z.object({
  name: z.string(),
  mission: MissionSectionSchema,
  live: z.literal(true),
  effective_from: z.literal("immediate"),
}));

/** The `mission` key of the status body. */
export const MissionStatusSchema: AnswerSchema<MissionStatus> = exactly(
  z.object({ enabled: z.boolean(), state: z.enum(STATES).nullable(), evaluations: z.number().int() })
    .openapi("MissionStatus"),
);
