import assert from "node:assert/strict";
import { parseSection } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an empty mission section resolves to a disabled mission", () => {
  assert.deepEqual(expectOk(parseSection("mission", {})), {
    enabled: false,
    objective: "",
    success_criteria: "",
    eval_model: null,
    eval_every: 1,
    confidence_threshold: 0.7,
    timeout_hours: 0,
    max_invocations: 0,
    on_complete: "stop",
    escalation: null,
  });
});

Deno.test("an enabled mission needs a non-empty objective", () => {
  assert.match(
    issueAt(parseSection("mission", { enabled: true }), "mission.objective").expected,
    /required when enabled/,
  );
  assert.match(
    issueAt(parseSection("mission", { enabled: true, objective: "   " }), "mission.objective").expected,
    /non-empty/,
  );
  assert.equal(
    expectOk(parseSection("mission", { enabled: true, objective: "Ship it" })).objective,
    "Ship it",
  );
});

Deno.test("mission fields keep their bounds", () => {
  assert.match(
    issueAt(parseSection("mission", { confidence_threshold: 1.2 }), "mission.confidence_threshold").expected,
    /from 0 to 1/,
  );
  assert.match(issueAt(parseSection("mission", { eval_every: 0 }), "mission.eval_every").expected, />= 1/);
  assert.equal(
    issueAt(parseSection("mission", { on_complete: "pause" }), "mission.on_complete").expected,
    'one of "stop", "suspend", "continue"',
  );
});

Deno.test("eval_model is a provider:model string or null", () => {
  assert.equal(
    expectOk(parseSection("mission", { eval_model: "anthropic:claude-x" })).eval_model,
    "anthropic:claude-x",
  );
  assert.match(
    issueAt(parseSection("mission", { eval_model: "gpt-4" }), "mission.eval_model").expected,
    /<provider>:<model>.*or null/,
  );
});
