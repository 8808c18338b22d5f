import assert from "node:assert/strict";
import { parseSection } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an empty health section resolves to the reference defaults", () => {
  assert.deepEqual(expectOk(parseSection("health", {})), {
    enabled: false,
    stuck_threshold: 3,
    loop_window: 20,
    loop_min_repeats: 2,
    empty_threshold: 3,
    empty_max_chars: 10,
    error_window: 10,
    error_rate_threshold: 0.5,
    on_anomaly: "log",
    cooldown: 300,
    escalation: null,
  });
});

Deno.test("health thresholds enforce their minimums", () => {
  assert.match(
    issueAt(parseSection("health", { stuck_threshold: 1 }), "health.stuck_threshold").expected,
    />= 2/,
  );
  assert.match(issueAt(parseSection("health", { loop_window: 3 }), "health.loop_window").expected, />= 4/);
  assert.match(issueAt(parseSection("health", { cooldown: -1 }), "health.cooldown").expected, />= 0/);
  assert.equal(expectOk(parseSection("health", { empty_max_chars: 0 })).empty_max_chars, 0);
});

Deno.test("error_rate_threshold must be above 0 and at most 1", () => {
  assert.match(
    issueAt(parseSection("health", { error_rate_threshold: 0 }), "health.error_rate_threshold").expected,
    /> 0 and <= 1/,
  );
  assert.match(
    issueAt(parseSection("health", { error_rate_threshold: 1.5 }), "health.error_rate_threshold").expected,
    /> 0 and <= 1/,
  );
  assert.equal(expectOk(parseSection("health", { error_rate_threshold: 1 })).error_rate_threshold, 1);
});

Deno.test("on_anomaly refuses stop and escalate needs a target", () => {
  assert.equal(
    issueAt(parseSection("health", { on_anomaly: "stop" }), "health.on_anomaly").expected,
    'one of "log", "pause", "escalate"',
  );
  assert.match(
    issueAt(parseSection("health", { on_anomaly: "escalate" }), "health.escalation").expected,
    /on_anomaly is "escalate"/,
  );
});

Deno.test("a health flag given as a string is refused", () => {
  assert.equal(
    issueAt(parseSection("health", { enabled: "true" }), "health.enabled").expected,
    "true or false (got a string)",
  );
});
