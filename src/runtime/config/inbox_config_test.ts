import assert from "node:assert/strict";
import { parseSection } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an empty inbox section resolves to the spec defaults", () => {
  assert.deepEqual(expectOk(parseSection("inbox", {})), {
    enabled: false,
    max_messages: 50,
    max_message_length: 2000,
    default_ttl: 3600,
    max_ttl: 86400,
    rate_limit_per_sender: 20,
    scan_with_guardrails: true,
    wake: false,
  });
});

Deno.test("inbox limits refuse strings, booleans as numbers and values below their minimum", () => {
  assert.equal(
    issueAt(parseSection("inbox", { max_messages: "5" }), "inbox.max_messages").expected,
    "an integer >= 1 (got a string)",
  );
  assert.equal(
    issueAt(parseSection("inbox", { enabled: 1 }), "inbox.enabled").expected,
    "true or false (got a number)",
  );
  assert.match(
    issueAt(parseSection("inbox", { max_message_length: 0 }), "inbox.max_message_length").expected,
    />= 1/,
  );
  assert.match(issueAt(parseSection("inbox", { default_ttl: -1 }), "inbox.default_ttl").expected, />= 0/);
});

Deno.test("default_ttl may not exceed max_ttl unless max_ttl is 0", () => {
  const issue = issueAt(parseSection("inbox", { default_ttl: 100, max_ttl: 50 }), "inbox.default_ttl");
  assert.match(issue.expected, /max_ttl/);
  assert.equal(expectOk(parseSection("inbox", { default_ttl: 100000, max_ttl: 0 })).default_ttl, 100000);
  assert.equal(expectOk(parseSection("inbox", { default_ttl: 0, max_ttl: 10 })).default_ttl, 0);
});

Deno.test("an unknown inbox field is refused by name with the allowed list", () => {
  const issue = issueAt(parseSection("inbox", { max_msgs: 3 }), "inbox.max_msgs");
  assert.equal(
    issue.expected,
    "no such field; allowed: enabled, max_messages, max_message_length, default_ttl, max_ttl, rate_limit_per_sender, scan_with_guardrails, wake",
  );
});
