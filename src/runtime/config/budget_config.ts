/**
 * BudgetConfig: per-run and per-day limits on tool calls, model turns, runs and abstract cost.
 *
 * @module
 */

import { z } from "zod";
import { boolean, integer, nonEmptyString, number, oneOf, OR_NULL, strictObject } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";
import type { BudgetConfig, BudgetConfigInput, ToolCost, ToolCostInput } from "./budget_config_types.ts";
import { escalationField, requireEscalation } from "./escalation_target.ts";

export type {
  BudgetAction,
  BudgetConfig,
  BudgetConfigInput,
  ToolCost,
  ToolCostInput,
} from "./budget_config_types.ts";

/** Cost settings of one tool (tools not listed cost 1 and are reversible). */
export const ToolCostSchema: z.ZodType<ToolCost, ToolCostInput> = exactly(strictObject({
  cost_weight: number({ gt: 0 }).default(1),
  irreversible: boolean().default(false),
}));

/** Actions when a budget limit is exceeded. */
export const BUDGET_ACTIONS = ["pause", "stop", "escalate"] as const;

/** Budget settings; every limit is null (unlimited) by default. */
export const BudgetConfigSchema: z.ZodType<BudgetConfig, BudgetConfigInput> = exactly(
  strictObject({
    enabled: boolean().default(false),
    max_tool_calls_per_run: integer({ min: 1 }, OR_NULL).nullable().default(null),
    max_llm_turns_per_run: integer({ min: 1 }, OR_NULL).nullable().default(null),
    max_cost_per_run: number({ gt: 0 }, OR_NULL).nullable().default(null),
    max_irreversible_per_run: integer({ min: 0 }, OR_NULL).nullable().default(null),
    max_tool_calls_per_day: integer({ min: 1 }, OR_NULL).nullable().default(null),
    max_runs_per_day: integer({ min: 1 }, OR_NULL).nullable().default(null),
    max_cost_per_day: number({ gt: 0 }, OR_NULL).nullable().default(null),
    tool_costs: z.record(nonEmptyString("a tool name"), ToolCostSchema, {
      error: "an object mapping tool names to {cost_weight, irreversible}",
    }).default(() => ({})),
    on_exceeded: oneOf(BUDGET_ACTIONS).default("pause"),
    escalation: escalationField(),
    daily_reset_hour_utc: integer({ min: 0, max: 23 }).default(0),
    inject_remaining: boolean().default(true),
  }).superRefine((budget, ctx) => requireEscalation("on_exceeded", budget, ctx)),
);
