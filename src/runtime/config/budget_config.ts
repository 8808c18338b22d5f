/**
 * BudgetConfig: the `budget` config section, per-run and per-day limits on tool calls, model turns, runs
 * cost and model tokens. Cost is counted in abstract units, not money: each tool call adds its tool's
 * `cost_weight`; model turns cost nothing (their tokens are capped by `max_tokens_per_run` / `_per_day`). Daily counters reset at `daily_reset_hour_utc`.
 *
 * @module
 */

import { z } from "zod";
import {
  boolean,
  integer,
  nonEmptyString,
  number,
  oneOf,
  OR_NULL,
  type Resolved,
  strictObject,
} from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";
import { escalationField, type EscalationTarget, requireEscalation } from "./escalation_target.ts";

/** What happens when a budget limit is exceeded: suspend, stop, or notify the escalation target and suspend. */
export type BudgetAction = "pause" | "stop" | "escalate";

/** Cost settings of one tool, as written. */
export interface ToolCostInput {
  /**
   * Cost units one call of this tool adds to the run and day totals. A number > 0.
   * @default 1
   */
  cost_weight?: number;
  /**
   * Whether a call counts against `max_irreversible_per_run` (e.g. sending an email).
   * @default false
   */
  irreversible?: boolean;
}

/** Cost settings of one tool, resolved. */
export type ToolCost = Resolved<ToolCostInput>;

/** The `budget` section as written. Every field is optional; every limit is unlimited by default. */
export interface BudgetConfigInput {
  /**
   * Turns budget tracking and enforcement on.
   * @default false
   */
  enabled?: boolean;
  /**
   * Most tool calls in one run; a call over the limit is refused. An integer >= 1, or null for no limit.
   * @default null
   */
  max_tool_calls_per_run?: number | null;
  /**
   * Most model turns in one run. An integer >= 1, or null for no limit.
   * @default null
   */
  max_llm_turns_per_run?: number | null;
  /**
   * Most cost units in one run (see `tool_costs`). A number > 0, or null for no limit.
   * @default null
   */
  max_cost_per_run?: number | null;
  /**
   * Most irreversible tool calls in one run. An integer >= 0 (0 forbids them), or null for no limit.
   * @default null
   */
  max_irreversible_per_run?: number | null;
  /**
   * Most tool calls per day. An integer >= 1, or null for no limit.
   * @default null
   */
  max_tool_calls_per_day?: number | null;
  /**
   * Most runs per day; a run over the limit is skipped. An integer >= 1, or null for no limit.
   * @default null
   */
  max_runs_per_day?: number | null;
  /**
   * Most cost units per day. A number > 0, or null for no limit.
   * @default null
   */
  max_cost_per_day?: number | null;
  /**
   * Most model tokens (input + output, as the provider reports them) in one run; no model turn starts once
   * it is reached. An integer >= 1, or null for no limit. (Ours, beyond the reference.)
   * @default null
   */
  max_tokens_per_run?: number | null;
  /**
   * Most model tokens (input + output) per day; no run or model turn starts once it is reached. An integer
   * >= 1, or null for no limit. (Ours, beyond the reference.)
   * @default null
   */
  max_tokens_per_day?: number | null;
  /**
   * Cost settings by exact tool name. Tools not listed cost 1 and are reversible.
   * @default {}
   */
  tool_costs?: Record<string, ToolCostInput>;
  /**
   * What happens when a limit is exceeded: "pause" suspends the process, "stop" stops it, "escalate"
   * notifies `escalation` and suspends.
   * @default "pause"
   */
  on_exceeded?: BudgetAction;
  /**
   * Where escalations go. Required when `on_exceeded` is "escalate".
   * @default null
   */
  escalation?: EscalationTarget | null;
  /**
   * Hour of the day (UTC) at which daily counters reset. An integer from 0 to 23.
   * @default 0
   */
  daily_reset_hour_utc?: number;
  /**
   * Tell the model its remaining budget at the start of each run.
   * @default true
   */
  inject_remaining?: boolean;
}

/** The `budget` section with every default filled. */
export interface BudgetConfig {
  /**
   * Turns budget tracking and enforcement on.
   * @default false
   */
  enabled: boolean;
  /**
   * Most tool calls in one run; a call over the limit is refused. An integer >= 1, or null for no limit.
   * @default null
   */
  max_tool_calls_per_run: number | null;
  /**
   * Most model turns in one run. An integer >= 1, or null for no limit.
   * @default null
   */
  max_llm_turns_per_run: number | null;
  /**
   * Most cost units in one run (see `tool_costs`). A number > 0, or null for no limit.
   * @default null
   */
  max_cost_per_run: number | null;
  /**
   * Most irreversible tool calls in one run. An integer >= 0 (0 forbids them), or null for no limit.
   * @default null
   */
  max_irreversible_per_run: number | null;
  /**
   * Most tool calls per day. An integer >= 1, or null for no limit.
   * @default null
   */
  max_tool_calls_per_day: number | null;
  /**
   * Most runs per day; a run over the limit is skipped. An integer >= 1, or null for no limit.
   * @default null
   */
  max_runs_per_day: number | null;
  /**
   * Most cost units per day. A number > 0, or null for no limit.
   * @default null
   */
  max_cost_per_day: number | null;
  /**
   * Most model tokens (input + output, as the provider reports them) in one run; no model turn starts once
   * it is reached. An integer >= 1, or null for no limit. (Ours, beyond the reference.)
   * @default null
   */
  max_tokens_per_run: number | null;
  /**
   * Most model tokens (input + output) per day; no run or model turn starts once it is reached. An integer
   * >= 1, or null for no limit. (Ours, beyond the reference.)
   * @default null
   */
  max_tokens_per_day: number | null;
  /**
   * Cost settings by exact tool name. Tools not listed cost 1 and are reversible.
   * @default {}
   */
  tool_costs: Record<string, ToolCost>;
  /**
   * What happens when a limit is exceeded: "pause" suspends the process, "stop" stops it, "escalate"
   * notifies `escalation` and suspends.
   * @default "pause"
   */
  on_exceeded: BudgetAction;
  /**
   * Where escalations go. Required when `on_exceeded` is "escalate".
   * @default null
   */
  escalation: EscalationTarget | null;
  /**
   * Hour of the day (UTC) at which daily counters reset. An integer from 0 to 23.
   * @default 0
   */
  daily_reset_hour_utc: number;
  /**
   * Tell the model its remaining budget at the start of each run.
   * @default true
   */
  inject_remaining: boolean;
}

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
    max_tokens_per_run: integer({ min: 1 }, OR_NULL).nullable().default(null),
    max_tokens_per_day: integer({ min: 1 }, OR_NULL).nullable().default(null),
    tool_costs: z.record(nonEmptyString("a tool name"), ToolCostSchema, {
      error: "an object mapping tool names to {cost_weight, irreversible}",
    }).default(() => ({})),
    on_exceeded: oneOf(BUDGET_ACTIONS).default("pause"),
    escalation: escalationField(),
    daily_reset_hour_utc: integer({ min: 0, max: 23 }).default(0),
    inject_remaining: boolean().default(true),
  }).superRefine((budget, ctx) => requireEscalation("on_exceeded", budget, ctx)),
);
