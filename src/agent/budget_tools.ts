/**
 * The budget around a run's tool box: each call is checked before it runs (tool-call, cost and
 * irreversible limits, run and day); a refused call never reaches the tool, is not counted, and the model
 * gets a tool error naming the limit.
 *
 * @module
 */

import type { BudgetRun } from "../runtime/mod.ts";
import type { ToolBox } from "./tool_loop.ts";

/** `box` with every call checked by `budget`; without a budget, `box` itself. */
export function withBudget(box: ToolBox, budget: BudgetRun | undefined): ToolBox {
  if (!budget) return box;
  return {
    specs: () => box.specs(),
    call(name, args, signal) {
      const check = budget.beforeToolCall(name);
      if (!check.ok) return Promise.resolve({ content: check.message, isError: true });
      return box.call(name, args, signal);
    },
  };
}
