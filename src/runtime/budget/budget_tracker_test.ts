import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { type BudgetConfig, type BudgetConfigInput, parseSection } from "../config/mod.ts";
import { BudgetTracker } from "./budget_tracker.ts";

function budgetOf(input: BudgetConfigInput): BudgetConfig {
  const parsed = parseSection("budget", { enabled: true, ...input });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.config;
}

function tracker(input: BudgetConfigInput, now?: () => number) {
  let config = budgetOf(input);
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const budget = new BudgetTracker({
    config: () => config,
    now,
    onEvent: (type, data) => events.push({ type, data }),
  });
  return { budget, events, set: (next: BudgetConfigInput) => (config = budgetOf(next)) };
}

Deno.test("max_tool_calls_per_run refuses the call past the limit, uncounted, and a new run starts at zero", () => {
  const { budget, events } = tracker({ max_tool_calls_per_run: 2 });
  const run = budget.startRun();
  assert.equal(run.beforeToolCall("search").ok, true);
  assert.equal(run.beforeToolCall("search").ok, true);
  const refused = run.beforeToolCall("search");
  assert.equal(refused.ok, false);
  if (refused.ok) return;
  assert.deepEqual(
    {
      limit: refused.violation.limit,
      value: refused.violation.limit_value,
      used: refused.violation.current_value,
    },
    { limit: "max_tool_calls_per_run", value: 2, used: 2 },
  );
  assert.match(refused.message, /max_tool_calls_per_run is 2 \(2 used\)\. The call of search was not made/);
  assert.equal(run.usage.tool_calls, 2);
  assert.equal(run.violation?.limit, "max_tool_calls_per_run");
  assert.equal(events.filter((e) => e.type === "budget_exceeded").length, 1);
  const next = budget.startRun();
  assert.equal(next.beforeToolCall("search").ok, true);
  assert.equal(next.violation, undefined);
});

Deno.test("max_tool_calls_per_day counts across runs", () => {
  const { budget } = tracker({ max_tool_calls_per_day: 3 });
  const first = budget.startRun();
  first.beforeToolCall("a");
  first.beforeToolCall("b");
  const second = budget.startRun();
  assert.equal(second.beforeToolCall("a").ok, true);
  const refused = second.beforeToolCall("a");
  assert.equal(!refused.ok && refused.violation.limit, "max_tool_calls_per_day");
  assert.equal(budget.status().used_today.tool_calls, 3);
});

Deno.test("cost limits use tool_costs weights (unlisted tools cost 1) for the run and the day", () => {
  const { budget } = tracker({
    max_cost_per_run: 5,
    max_cost_per_day: 7,
    tool_costs: { deploy: { cost_weight: 2.5 } },
  });
  const run = budget.startRun();
  assert.equal(run.beforeToolCall("deploy").ok, true);
  assert.equal(run.beforeToolCall("deploy").ok, true);
  const refused = run.beforeToolCall("search"); // 5 + 1 > 5
  assert.equal(!refused.ok && refused.violation.limit, "max_cost_per_run");
  assert.equal(run.usage.cost, 5);
  const second = budget.startRun();
  assert.equal(second.beforeToolCall("search").ok, true); // day 6
  const day = second.beforeToolCall("deploy"); // 6 + 2.5 > 7
  assert.equal(!day.ok && day.violation.limit, "max_cost_per_day");
  assert.equal(second.remaining().cost_day, 1);
});

Deno.test("max_irreversible_per_run counts only irreversible tools; 0 forbids them", () => {
  const { budget } = tracker({
    max_irreversible_per_run: 0,
    tool_costs: { send_email: { irreversible: true } },
  });
  const run = budget.startRun();
  const refused = run.beforeToolCall("send_email");
  assert.equal(!refused.ok && refused.violation.limit, "max_irreversible_per_run");
  assert.equal(run.beforeToolCall("read_inbox").ok, true);
  assert.equal(run.usage.irreversible, 0);
});

Deno.test("max_llm_turns_per_run refuses the turn past the limit and the tool calls of the last turn", () => {
  const { budget } = tracker({ max_llm_turns_per_run: 2 });
  const run = budget.startRun();
  assert.equal(run.beforeTurn().ok, true);
  assert.equal(run.beforeToolCall("a").ok, true);
  assert.equal(run.beforeTurn().ok, true);
  const tool = run.beforeToolCall("a");
  assert.equal(!tool.ok && tool.violation.limit, "max_llm_turns_per_run");
  const turn = run.beforeTurn();
  assert.equal(!turn.ok && turn.violation.limit, "max_llm_turns_per_run");
  assert.equal(run.usage.llm_turns, 2);
});

Deno.test("token limits stop model turns once the run's or the day's tokens are used up", () => {
  const { budget } = tracker({ max_tokens_per_run: 100, max_tokens_per_day: 150 });
  const run = budget.startRun();
  assert.equal(run.beforeTurn().ok, true);
  run.addTokens(120);
  const turn = run.beforeTurn();
  assert.equal(!turn.ok && turn.violation.limit, "max_tokens_per_run");
  const second = budget.startRun();
  assert.equal(second.beforeTurn().ok, true);
  second.addTokens(40);
  const day = second.beforeTurn();
  assert.equal(!day.ok && day.violation.limit, "max_tokens_per_day");
  const third = budget.startRun();
  assert.equal(third.refusal?.violation.limit, "max_tokens_per_day");
  assert.equal(budget.status().used_today.tokens, 160);
});

Deno.test("max_runs_per_day refuses the run past the limit at its start, uncounted", () => {
  const { budget } = tracker({ max_runs_per_day: 2 });
  assert.equal(budget.startRun().refusal, undefined);
  assert.equal(budget.startRun().refusal, undefined);
  const refused = budget.startRun();
  assert.equal(refused.refusal?.violation.limit, "max_runs_per_day");
  assert.equal(refused.violation?.limit, "max_runs_per_day");
  assert.equal(budget.status().used_today.runs, 2);
  assert.equal(budget.remaining().runs_day, 0);
});

Deno.test("a limit warns once at 80 % per period, journaled as budget_warning", () => {
  const { budget, events } = tracker({ max_tool_calls_per_run: 5, max_tool_calls_per_day: 100 });
  for (const _ of [1, 2]) {
    const run = budget.startRun();
    for (let i = 0; i < 5; i++) run.beforeToolCall("a");
  }
  const warnings = events.filter((e) => e.type === "budget_warning").map((e) => e.data);
  assert.deepEqual(warnings, [
    { limit: "max_tool_calls_per_run", limit_value: 5, current_value: 4 },
    { limit: "max_tool_calls_per_run", limit_value: 5, current_value: 4 },
  ]);
});

Deno.test("the day counters reset exactly at daily_reset_hour_utc, not also at midnight", () => {
  using clock = fakeClock(Date.UTC(2026, 0, 10, 5, 0));
  const { budget, events } = tracker({ max_runs_per_day: 1, daily_reset_hour_utc: 6 });
  assert.equal(budget.status().last_reset, "2026-01-09T06:00:00.000Z");
  assert.equal(budget.startRun().refusal, undefined);
  assert.equal(budget.startRun().refusal?.violation.limit, "max_runs_per_day");
  clock.tick(59 * 60_000); // 05:59
  assert.equal(budget.startRun().refusal?.violation.limit, "max_runs_per_day");
  clock.tick(60_000); // 06:00: reset
  assert.equal(budget.startRun().refusal, undefined);
  assert.equal(budget.status().last_reset, "2026-01-10T06:00:00.000Z");
  assert.equal(budget.status().next_reset, "2026-01-11T06:00:00.000Z");
  clock.tick(18 * 3_600_000); // 00:00 the next day: no reset
  assert.equal(budget.startRun().refusal?.violation.limit, "max_runs_per_day");
  assert.equal(budget.status().refusals_today, 1); // since the 06:00 reset
  assert.equal(events.filter((e) => e.type === "budget_exceeded").length, 3);
});

Deno.test("a live change of a limit applies at the next check and keeps the counts", () => {
  const { budget, set } = tracker({ max_tool_calls_per_day: 10 });
  const run = budget.startRun();
  for (let i = 0; i < 4; i++) run.beforeToolCall("a");
  set({ max_tool_calls_per_day: 4 });
  const refused = run.beforeToolCall("a");
  assert.equal(!refused.ok && refused.violation.current_value, 4);
  set({ max_tool_calls_per_day: null });
  assert.equal(run.beforeToolCall("a").ok, true);
  assert.equal(budget.remaining().tool_calls_day, null);
});

Deno.test("a snapshot brings the day counters back; one from an ended period resets them", () => {
  using clock = fakeClock(Date.UTC(2026, 0, 10, 12, 0));
  const { budget } = tracker({ max_runs_per_day: 3 });
  budget.startRun().beforeToolCall("a");
  budget.startRun();
  const snapshot = JSON.parse(JSON.stringify(budget.snapshot()));
  const restored = tracker({ max_runs_per_day: 3 });
  assert.equal(restored.budget.restore(snapshot), true);
  assert.deepEqual(restored.budget.status().used_today, { tool_calls: 1, runs: 2, cost: 1, tokens: 0 });
  assert.equal(restored.budget.restore({ day: { runs: "2" }, last_reset: "x" }), false);
  clock.tick(24 * 3_600_000);
  const later = tracker({ max_runs_per_day: 3 });
  later.budget.restore(snapshot);
  assert.equal(later.budget.status().used_today.runs, 0);
});

function fakeClock(now: number) {
  const clock = FakeTimers.install({ now, toFake: ["Date"] });
  return { tick: (ms: number) => clock.tick(ms), [Symbol.dispose]: () => clock.uninstall() };
}
