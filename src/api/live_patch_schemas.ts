/**
 * Schemas and answer types of the live patches of the budget and health sections (issue 13,
 * spec 000 "Live configuration"), and of the budget section of the status body.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { exactly } from "../_util/schema_proof.ts";
import type {
  BudgetConfig,
  BudgetStatus,
  BudgetViolation,
  EscalationTarget,
  HealthConfig,
} from "../runtime/mod.ts";
import type { BudgetPatchAnswer, HealthPatchAnswer } from "./live_patch_types.ts";

type AnswerSchema<T> = z.ZodType<T, T>;

const count = () => z.number().int();
const limit = () => z.number().nullable();

const EscalationSchema: AnswerSchema<EscalationTarget> = exactly(z.object({
  webhook_url: z.string().optional(),
  event_type: z.string().optional(),
  allow_private_network: z.boolean().optional(),
}));

/** A budget section. */
export const BudgetSectionSchema: AnswerSchema<BudgetConfig> = exactly(
  z.object({
    enabled: z.boolean(),
    max_tool_calls_per_run: limit(),
    max_llm_turns_per_run: limit(),
    max_cost_per_run: limit(),
    max_irreversible_per_run: limit(),
    max_tool_calls_per_day: limit(),
    max_runs_per_day: limit(),
    max_cost_per_day: limit(),
    max_tokens_per_run: limit(),
    max_tokens_per_day: limit(),
    tool_costs: z.record(z.string(), z.object({ cost_weight: z.number(), irreversible: z.boolean() })),
    on_exceeded: z.enum(["pause", "stop", "escalate"]),
    escalation: EscalationSchema.nullable(),
    daily_reset_hour_utc: count(),
    inject_remaining: z.boolean(),
  }).openapi("BudgetConfig"),
);

/** A health section. */
export const HealthSectionSchema: AnswerSchema<HealthConfig> = exactly(
  z.object({
    enabled: z.boolean(),
    stuck_threshold: count(),
    loop_window: count(),
    loop_min_repeats: count(),
    empty_threshold: count(),
    empty_max_chars: count(),
    error_window: count(),
    error_rate_threshold: z.number(),
    on_anomaly: z.enum(["log", "pause", "escalate"]),
    cooldown: z.number(),
    escalation: EscalationSchema.nullable(),
  }).openapi("HealthConfig"),
);

/** Answer of the budget patch. */
export const BudgetPatchAnswerSchema: AnswerSchema<BudgetPatchAnswer> = exactly(z.object({
  name: z.string(),
  budget: BudgetSectionSchema,
  live: z.literal(true),
  effective_from: z.literal("next_budget_check"),
}));

/** Answer of the health patch. */
export const HealthPatchAnswerSchema: AnswerSchema<HealthPatchAnswer> = exactly(z.object({
  name: z.string(),
  health: HealthSectionSchema,
  live: z.literal(true),
  effective_from: z.literal("immediate"),
}));

const runUsage = () =>
  z.object({
    tool_calls: count(),
    llm_turns: count(),
    cost: z.number(),
    irreversible: count(),
    tokens: count(),
  });
const dayUsage = () => z.object({ tool_calls: count(), runs: count(), cost: z.number(), tokens: count() });

const ViolationSchema: AnswerSchema<BudgetViolation> = exactly(z.object({
  limit: z.enum([
    "max_tool_calls_per_run",
    "max_llm_turns_per_run",
    "max_cost_per_run",
    "max_irreversible_per_run",
    "max_tokens_per_run",
    "max_tool_calls_per_day",
    "max_runs_per_day",
    "max_cost_per_day",
    "max_tokens_per_day",
  ]),
  limit_value: z.number(),
  current_value: z.number(),
  tool: z.string().nullable(),
  at: z.string(),
}));

/** The budget section of the status body. */
export const BudgetStatusSchema: AnswerSchema<BudgetStatus | { enabled: false }> = exactly(
  z.union([
    z.object({
      enabled: z.literal(true),
      on_exceeded: z.enum(["pause", "stop", "escalate"]),
      remaining: z.object({
        tool_calls_run: limit(),
        llm_turns_run: limit(),
        cost_run: limit(),
        irreversible_run: limit(),
        tokens_run: limit(),
        tool_calls_day: limit(),
        runs_day: limit(),
        cost_day: limit(),
        tokens_day: limit(),
      }).openapi({ description: "What the next run starts with: limit − used; null: unlimited." }),
      used_today: dayUsage(),
      last_run: runUsage(),
      last_reset: z.string(),
      next_reset: z.string(),
      refusals_today: count(),
      last_violation: ViolationSchema.nullable(),
    }),
    z.object({ enabled: z.literal(false) }),
  ]).openapi("BudgetStatus"),
);
