/**
 * The budget limits: which counter each one caps, and the daily period.
 *
 * @module
 */

import type { BudgetConfig } from "../config/mod.ts";

/** Counters of one run; they start at zero with every run. */
export interface RunUsage {
  /** Tool calls made (refused calls are not counted). */
  tool_calls: number;
  /** Model turns started. */
  llm_turns: number;
  /** Cost units of the tool calls made. */
  cost: number;
  /** Irreversible tool calls made. */
  irreversible: number;
  /** Model tokens (input + output). */
  tokens: number;
}

/** Counters of the current day (since the last reset at `daily_reset_hour_utc`). */
export interface DayUsage {
  /** Tool calls made. */
  tool_calls: number;
  /** Runs begun (refused runs are not counted). */
  runs: number;
  /** Cost units. */
  cost: number;
  /** Model tokens (input + output). */
  tokens: number;
}

/** Name of a budget limit: a BudgetConfig field. */
export type BudgetLimitName =
  | "max_tool_calls_per_run"
  | "max_llm_turns_per_run"
  | "max_cost_per_run"
  | "max_irreversible_per_run"
  | "max_tokens_per_run"
  | "max_tool_calls_per_day"
  | "max_runs_per_day"
  | "max_cost_per_day"
  | "max_tokens_per_day";

/** What the model is told is left, per limit: limit − used; null means unlimited. */
export interface BudgetRemaining {
  /** Tool calls left in this run. */
  tool_calls_run: number | null;
  /** Model turns left in this run. */
  llm_turns_run: number | null;
  /** Cost units left in this run. */
  cost_run: number | null;
  /** Irreversible tool calls left in this run. */
  irreversible_run: number | null;
  /** Tokens left in this run. */
  tokens_run: number | null;
  /** Tool calls left today. */
  tool_calls_day: number | null;
  /** Runs left today. */
  runs_day: number | null;
  /** Cost units left today. */
  cost_day: number | null;
  /** Tokens left today. */
  tokens_day: number | null;
}

interface LimitSpec {
  name: BudgetLimitName;
  key: keyof BudgetRemaining;
  read: (run: RunUsage, day: DayUsage) => number;
}

/** Every limit, in the order they are reported. */
export const LIMITS: readonly LimitSpec[] = [
  { name: "max_tool_calls_per_run", key: "tool_calls_run", read: (run) => run.tool_calls },
  { name: "max_llm_turns_per_run", key: "llm_turns_run", read: (run) => run.llm_turns },
  { name: "max_cost_per_run", key: "cost_run", read: (run) => run.cost },
  { name: "max_irreversible_per_run", key: "irreversible_run", read: (run) => run.irreversible },
  { name: "max_tokens_per_run", key: "tokens_run", read: (run) => run.tokens },
  { name: "max_tool_calls_per_day", key: "tool_calls_day", read: (_, day) => day.tool_calls },
  { name: "max_runs_per_day", key: "runs_day", read: (_, day) => day.runs },
  { name: "max_cost_per_day", key: "cost_day", read: (_, day) => day.cost },
  { name: "max_tokens_per_day", key: "tokens_day", read: (_, day) => day.tokens },
];

/** Share of a limit at which a warning is given. */
export const WARNING_SHARE = 0.8;

const DAY_MS = 86_400_000;

/** Zeroed run counters. */
export function emptyRun(): RunUsage {
  return { tool_calls: 0, llm_turns: 0, cost: 0, irreversible: 0, tokens: 0 };
}

/** Zeroed day counters. */
export function emptyDay(): DayUsage {
  return { tool_calls: 0, runs: 0, cost: 0, tokens: 0 };
}

/** The limit's value in `config` (null: unlimited). */
export function limitOf(config: BudgetConfig, name: BudgetLimitName): number | null {
  return config[name];
}

/** Whether the limit counts per run (else per day). */
export function isRunLimit(name: BudgetLimitName): boolean {
  return name.endsWith("_per_run");
}

/** Start (epoch ms) of the daily period holding `now`: the latest `hour`:00 UTC at or before it. */
export function periodStart(now: number, hour: number): number {
  const date = new Date(now);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), hour);
  return start <= now ? start : start - DAY_MS;
}

/** Start of the next daily period after the one starting at `start`. */
export function nextPeriod(start: number): number {
  return start + DAY_MS;
}

/** Cost sums without float noise (6 decimals). */
export function roundCost(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
