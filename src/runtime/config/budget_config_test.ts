import assert from "node:assert/strict";
import { parseSection } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an empty budget section resolves to unlimited defaults", () => {
  assert.deepEqual(expectOk(parseSection("budget", {})), {
    enabled: false,
    max_tool_calls_per_run: null,
    max_llm_turns_per_run: null,
    max_cost_per_run: null,
    max_irreversible_per_run: null,
    max_tool_calls_per_day: null,
    max_runs_per_day: null,
    max_cost_per_day: null,
    max_tokens_per_run: null,
    max_tokens_per_day: null,
    tool_costs: {},
    on_exceeded: "pause",
    escalation: null,
    daily_reset_hour_utc: 0,
    inject_remaining: true,
  });
});

Deno.test("budget limits keep their bounds and accept null", () => {
  const budget = expectOk(
    parseSection("budget", { max_irreversible_per_run: 0, max_cost_per_day: 2.5, max_runs_per_day: null }),
  );
  assert.equal(budget.max_irreversible_per_run, 0);
  assert.equal(budget.max_cost_per_day, 2.5);
  assert.equal(budget.max_runs_per_day, null);
  assert.match(
    issueAt(parseSection("budget", { max_tool_calls_per_run: 0 }), "budget.max_tool_calls_per_run").expected,
    /an integer >= 1 or null/,
  );
  assert.match(
    issueAt(parseSection("budget", { max_cost_per_run: 0 }), "budget.max_cost_per_run").expected,
    /a number > 0 or null/,
  );
  assert.match(
    issueAt(parseSection("budget", { daily_reset_hour_utc: 24 }), "budget.daily_reset_hour_utc").expected,
    /from 0 to 23/,
  );
});

Deno.test("budget numbers given as strings are refused, not coerced", () => {
  const issue = issueAt(
    parseSection("budget", { max_tool_calls_per_day: "100" }),
    "budget.max_tool_calls_per_day",
  );
  assert.equal(issue.expected, "an integer >= 1 or null (got a string)");
});

Deno.test("tool_costs entries get defaults and refuse unknown fields", () => {
  const budget = expectOk(parseSection("budget", { tool_costs: { send_email: { irreversible: true } } }));
  assert.deepEqual(budget.tool_costs.send_email, { cost_weight: 1, irreversible: true });
  const unknown = issueAt(
    parseSection("budget", { tool_costs: { send_email: { cost: 2 } } }),
    "budget.tool_costs.send_email.cost",
  );
  assert.equal(unknown.expected, "no such field; allowed: cost_weight, irreversible");
  const weight = issueAt(
    parseSection("budget", { tool_costs: { send_email: { cost_weight: 0 } } }),
    "budget.tool_costs.send_email.cost_weight",
  );
  assert.match(weight.expected, /^a number > 0/);
});

Deno.test("on_exceeded is one of its values and escalate needs an escalation target", () => {
  assert.equal(
    issueAt(parseSection("budget", { on_exceeded: "halt" }), "budget.on_exceeded").expected,
    'one of "pause", "stop", "escalate"',
  );
  assert.match(
    issueAt(parseSection("budget", { on_exceeded: "escalate" }), "budget.escalation").expected,
    /required when on_exceeded is "escalate"/,
  );
  const ok = expectOk(
    parseSection("budget", { on_exceeded: "escalate", escalation: { event_type: "budget.alert" } }),
  );
  assert.deepEqual(ok.escalation, { event_type: "budget.alert" });
});

Deno.test("token limits are integers >= 1 or null", () => {
  const budget = expectOk(parseSection("budget", { max_tokens_per_run: 5000, max_tokens_per_day: null }));
  assert.equal(budget.max_tokens_per_run, 5000);
  assert.equal(budget.max_tokens_per_day, null);
  assert.match(
    issueAt(parseSection("budget", { max_tokens_per_day: 1.5 }), "budget.max_tokens_per_day").expected,
    /an integer >= 1 or null/,
  );
  assert.match(
    issueAt(parseSection("budget", { max_tokens_per_run: "5" }), "budget.max_tokens_per_run").expected,
    /got a string/,
  );
});
