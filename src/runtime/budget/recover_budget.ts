/**
 * Budget counters survive a restart: each successful run's `checkpoint` journal entry holds them
 * (`budget`), and a deploy brings them back from the last one.
 *
 * @module
 */

import type { ProcessJournal } from "../../journal/mod.ts";
import type { BudgetTracker } from "./budget_tracker.ts";

/**
 * Restores `budget` from the journal's last `checkpoint` entry holding counters, unless the context was
 * reset after it (the process was removed and its name deployed again). True when counters came back.
 */
export async function recoverBudget(budget: BudgetTracker, journal: ProcessJournal): Promise<boolean> {
  const checkpoints = (await journal.read({ type: "checkpoint" })).filter((e) => e.data.budget !== undefined);
  const checkpoint = checkpoints.at(-1);
  if (!checkpoint) return false;
  const resets = (await journal.read({ type: "context_update" })).filter((e) => e.data.reset === true);
  const lastReset = resets.at(-1);
  if (lastReset && lastReset.timestamp >= checkpoint.timestamp) return false;
  return budget.restore(checkpoint.data.budget);
}
