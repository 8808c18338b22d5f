import assert from "node:assert/strict";
import { EscalationTargetSchema } from "./escalation_target.ts";
import { parseSection, parseWith } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an escalation target needs a webhook URL, an event type or both", () => {
  assert.deepEqual(expectOk(parseWith(EscalationTargetSchema, { event_type: "ops.alert" })), {
    event_type: "ops.alert",
  });
  assert.deepEqual(expectOk(parseWith(EscalationTargetSchema, { webhook_url: "https://ops.example/hook" })), {
    webhook_url: "https://ops.example/hook",
  });
  assert.match(
    issueAt(parseWith(EscalationTargetSchema, {}), "(config)").expected,
    /webhook_url, event_type or both/,
  );
});

Deno.test("an escalation webhook must be an http(s) URL", () => {
  const issue = issueAt(
    parseSection("health", { escalation: { webhook_url: "ftp://x" } }),
    "health.escalation.webhook_url",
  );
  assert.match(issue.expected, /http\(s\) URL/);
});

Deno.test("an unknown field inside escalation is refused with its path", () => {
  const issue = issueAt(
    parseSection("budget", { escalation: { event_type: "x", channel: "#ops" } }),
    "budget.escalation.channel",
  );
  assert.equal(issue.expected, "no such field; allowed: webhook_url, event_type, allow_private_network");
});

Deno.test("escalation may be null and is null by default", () => {
  assert.equal(expectOk(parseSection("mission", { escalation: null })).escalation, null);
  assert.equal(expectOk(parseSection("mission", {})).escalation, null);
  assert.match(
    issueAt(parseSection("mission", { escalation: "ops" }), "mission.escalation").expected,
    /or null \(got a string\)/,
  );
});

Deno.test("allow_private_network is an optional boolean of an escalation target", () => {
  assert.deepEqual(
    expectOk(
      parseWith(EscalationTargetSchema, { webhook_url: "http://10.0.0.5/hook", allow_private_network: true }),
    ),
    { webhook_url: "http://10.0.0.5/hook", allow_private_network: true },
  );
  const issue = issueAt(
    parseWith(EscalationTargetSchema, { event_type: "x", allow_private_network: 1 }),
    "allow_private_network",
  );
  assert.match(issue.expected, /true or false/);
});
