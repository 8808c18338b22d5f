/**
 * Answer and body types of the live patches of the budget and health sections (issue 13).
 *
 * @module
 */

import type { BudgetConfig, BudgetConfigInput, HealthConfig, HealthConfigInput } from "../runtime/mod.ts";

/**
 * A live patch body: the fields to change. `null` removes a field (it falls back to its default;
 * "unlimited" for every limit); `escalation` and `tool_costs` merge key by key (JSON merge patch).
 */
export type SectionPatch<T> = { [K in keyof T]?: T[K] | null };

/** Body of `PATCH /processes/{name}/budget`. */
export type BudgetPatch = SectionPatch<BudgetConfigInput>;

/** Body of `PATCH /processes/{name}/health`. */
export type HealthPatch = SectionPatch<HealthConfigInput>;

/** `PATCH /processes/{name}/budget`: the whole new section. */
export interface BudgetPatchAnswer {
  /** Process name. */
  name: string;
  /** The budget section now in force (every field, defaults filled; `${VAR}` references as written). */
  budget: BudgetConfig;
  /** Always true: applied without a redeploy. */
  live: true;
  /** Limits apply at the next budget check (tool call, model turn or run start); usage is kept. */
  effective_from: "next_budget_check";
}

/** `PATCH /processes/{name}/health`: the whole new section. */
export interface HealthPatchAnswer {
  /** Process name. */
  name: string;
  /** The health section now in force (every field, defaults filled). */
  health: HealthConfig;
  /** Always true. */
  live: true;
  /** Thresholds apply at the next check; history is kept. */
  effective_from: "immediate";
}
