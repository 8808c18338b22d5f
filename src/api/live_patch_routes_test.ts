import assert from "node:assert/strict";
import { deploy, testApi } from "../../tests/_api_harness.ts";

const BUDGET = "/api/v1/processes/a/budget";
const HEALTH = "/api/v1/processes/a/health";

Deno.test("PATCH budget with enabled true builds the budget and answers the whole new section", async () => {
  await using api = await testApi();
  await deploy(api, "a", {});
  const answer = await api.call("PATCH", BUDGET, { json: { enabled: true, max_tool_calls_per_day: 5 } });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.name, "a");
  assert.equal(answer.body.live, true);
  assert.equal(answer.body.effective_from, "next_budget_check");
  assert.equal(answer.body.budget.max_tool_calls_per_day, 5);
  assert.equal(answer.body.budget.on_exceeded, "pause");
  assert.equal(answer.body.budget.max_tokens_per_day, null);
  const process = api.runtime.get("a")!;
  assert.equal(process.config.budget.max_tool_calls_per_day, 5);
  assert.ok(process.budget);
  const status = await api.call("GET", "/api/v1/processes/a");
  assert.equal(status.body.features.budget, true);
  assert.equal(status.body.budget.remaining.tool_calls_day, 5);
  const off = await api.call("PATCH", BUDGET, { json: { enabled: false } });
  assert.equal(off.status, 200);
  assert.equal(process.budget, undefined);
  assert.deepEqual((await api.call("GET", "/api/v1/processes/a")).body.budget, { enabled: false });
});

Deno.test("a budget PATCH merges onto the section: null clears a limit, escalation and tool_costs merge", async () => {
  await using api = await testApi();
  await deploy(api, "a", {
    budget: {
      enabled: true,
      max_cost_per_day: 10,
      max_runs_per_day: 3,
      tool_costs: { deploy: { cost_weight: 3 } },
      escalation: { event_type: "ops.budget" },
    },
  });
  const answer = await api.call("PATCH", BUDGET, {
    json: {
      max_cost_per_day: null,
      tool_costs: { send: { irreversible: true } },
      escalation: { event_type: "x" },
    },
  });
  assert.equal(answer.status, 200);
  const budget = answer.body.budget;
  assert.equal(budget.max_cost_per_day, null);
  assert.equal(budget.max_runs_per_day, 3);
  assert.deepEqual(budget.tool_costs, {
    deploy: { cost_weight: 3, irreversible: false },
    send: { cost_weight: 1, irreversible: true },
  });
  assert.deepEqual(budget.escalation, { event_type: "x" });
});

Deno.test("budget PATCH refusals change nothing: UNKNOWN_FIELD (nested too), INVALID_CONFIG, MISSING_FIELD", async () => {
  await using api = await testApi();
  await deploy(api, "a", { budget: { enabled: true, max_runs_per_day: 3 } });
  const before = structuredClone(api.runtime.get("a")!.config.budget);
  const cases: [unknown, number, string, string][] = [
    [{ max_runs: 4 }, 422, "UNKNOWN_FIELD", "max_runs"],
    [{ escalation: { event_type: "x", channel: "#ops" } }, 422, "UNKNOWN_FIELD", "escalation.channel"],
    [{ tool_costs: { send: { weight: 2 } } }, 422, "UNKNOWN_FIELD", "tool_costs.send.weight"],
    [{ max_runs_per_day: "5" }, 422, "INVALID_CONFIG", "max_runs_per_day"],
    [{ max_runs_per_day: 0 }, 422, "INVALID_CONFIG", "max_runs_per_day"],
    [{ enabled: 1 }, 422, "INVALID_CONFIG", "enabled"],
    [{ on_exceeded: "escalate" }, 422, "INVALID_CONFIG", "escalation"],
    [{ daily_reset_hour_utc: 24, max_runs_per_day: 9 }, 422, "INVALID_CONFIG", "daily_reset_hour_utc"],
    [{}, 422, "MISSING_FIELD", "(body)"],
    [
      { escalation: { webhook_url: "https://${HOOK_URL}/x" } },
      403,
      "ENV_REFERENCES_NOT_ALLOWED",
      "escalation.webhook_url",
    ],
  ];
  for (const [json, status, code, field] of cases) {
    const answer = await api.call("PATCH", BUDGET, { json });
    assert.equal(answer.status, status, JSON.stringify(json));
    assert.equal(answer.body.error.code, code, JSON.stringify(json));
    assert.ok(
      answer.body.error.details.some((d: { field: string }) => d.field === field),
      JSON.stringify(json),
    );
  }
  assert.deepEqual(api.runtime.get("a")!.config.budget, before);
  assert.equal(
    (await api.call("PATCH", "/api/v1/processes/nope/budget", { json: { enabled: true } })).status,
    404,
  );
});

Deno.test("PATCH health replaces the section at once; strict types and limits as at deploy", async () => {
  await using api = await testApi();
  await deploy(api, "a", {});
  const answer = await api.call("PATCH", HEALTH, {
    json: { enabled: true, stuck_threshold: 5, cooldown: 0 },
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.effective_from, "immediate");
  assert.equal(answer.body.live, true);
  assert.equal(answer.body.health.stuck_threshold, 5);
  assert.equal(answer.body.health.loop_window, 20);
  assert.equal(api.runtime.get("a")!.config.health.stuck_threshold, 5);
  assert.equal(api.runtime.get("a")!.config.health.enabled, true);
  const cases: [unknown, string, string][] = [
    [{ stuck_threshold: 1 }, "INVALID_CONFIG", "stuck_threshold"],
    [{ error_rate_threshold: "0.5" }, "INVALID_CONFIG", "error_rate_threshold"],
    [{ escalation: { event_type: "x", extra: true } }, "UNKNOWN_FIELD", "escalation.extra"],
    [{}, "MISSING_FIELD", "(body)"],
  ];
  for (const [json, code, field] of cases) {
    const refused = await api.call("PATCH", HEALTH, { json });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error.code, code);
    assert.equal(refused.body.error.details[0].field, field);
  }
  assert.equal(api.runtime.get("a")!.config.health.stuck_threshold, 5);
});
