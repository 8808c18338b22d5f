/**
 * Budget counters survive a restart: each successful run's `checkpoint` journal entry holds them
 * (`budget`), and a deploy brings them back from the last one.
 *
 * @module
 */

import type { JournalEntry } from "../../journal/mod.ts";
import { CHECKPOINT_ENTRY, sinceLastReset } from "../context/recover_context.ts";
import type { BudgetTracker } from "./budget_tracker.ts";

/**
 * Restores `budget` from the last `checkpoint` holding counters among the process journal's `entries`
 * (oldest first), unless the context was reset after it (the process was removed and its name deployed
 * again). True when counters came back.
 */
export function recoverBudget(budget: BudgetTracker, entries: readonly JournalEntry[]): boolean {
  const checkpoint = sinceLastReset(entries)
    .findLast((e) => e.entry_type === CHECKPOINT_ENTRY && e.data.budget !== undefined);
  return checkpoint ? budget.restore(checkpoint.data.budget) : false;
}
