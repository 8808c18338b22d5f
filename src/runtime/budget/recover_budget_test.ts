import assert from "node:assert/strict";
import { MemoryJournal, ProcessJournal } from "../../journal/mod.ts";
import { parseSection } from "../config/mod.ts";
import { BudgetTracker } from "./budget_tracker.ts";
import { recoverBudget } from "./recover_budget.ts";

function budget(): BudgetTracker {
  const parsed = parseSection("budget", { enabled: true, max_runs_per_day: 10 });
  if (!parsed.ok) throw new Error("invalid");
  return new BudgetTracker({ config: () => parsed.config });
}

Deno.test("a deploy brings the day counters back from the last checkpoint holding them", async () => {
  const journal = new ProcessJournal(new MemoryJournal(), { process: "p", level: "checkpoint" });
  const before = budget();
  before.startRun().beforeToolCall("a");
  await journal.record("checkpoint", { invocation: 1, budget: before.snapshot() });
  before.startRun();
  await journal.record("checkpoint", { invocation: 2, budget: before.snapshot() });
  await journal.record("checkpoint", { invocation: 3 }); // a checkpoint without a budget
  const after = budget();
  assert.equal(await recoverBudget(after, await journal.read()), true);
  assert.deepEqual(after.status().used_today, { tool_calls: 1, runs: 2, cost: 1, tokens: 0 });
});

Deno.test("counters from before a context reset (the name was removed and deployed again) are not restored", async () => {
  const journal = new ProcessJournal(new MemoryJournal(), { process: "p", level: "checkpoint" });
  const before = budget();
  before.startRun();
  await journal.record("checkpoint", { invocation: 1, budget: before.snapshot() });
  await new Promise((r) => setTimeout(r, 2));
  await journal.record("context_update", { reset: true });
  const after = budget();
  assert.equal(await recoverBudget(after, await journal.read()), false);
  assert.equal(after.status().used_today.runs, 0);
});
