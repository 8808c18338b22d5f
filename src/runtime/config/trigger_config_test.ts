import assert from "node:assert/strict";
import { parseSection, parseWith } from "./issues.ts";
import { TriggerConfigSchema } from "./trigger_config.ts";
import { expectIssues, expectOk, issueAt } from "./_test_parse.ts";

function trigger(input: unknown) {
  return parseWith(TriggerConfigSchema, input);
}

Deno.test("each trigger type gets defaults for its own fields only", () => {
  assert.deepEqual(expectOk(trigger({ type: "cron", cron_expression: "0 * * * *" })), {
    type: "cron",
    cron_expression: "0 * * * *",
    cron_timezone: null,
    custom_config: {},
  });
  assert.deepEqual(expectOk(trigger({ type: "webhook" })), {
    type: "webhook",
    webhook_path: "/webhook",
    webhook_port: 9090,
    webhook_host: "127.0.0.1",
    custom_config: {},
  });
  assert.deepEqual(expectOk(trigger({ type: "file_watch", watch_path: "inbox" })), {
    type: "file_watch",
    watch_path: "inbox",
    watch_patterns: ["*"],
    watch_events: ["created", "modified"],
    custom_config: {},
  });
  assert.deepEqual(expectOk(trigger({ type: "event", event_type: "order.created" })), {
    type: "event",
    event_type: "order.created",
    custom_config: {},
  });
  assert.deepEqual(expectOk(trigger({ type: "message", topic: "reports.*" })), {
    type: "message",
    topic: "reports.*",
    custom_config: {},
  });
});

Deno.test("each trigger type requires its own fields", () => {
  assert.match(issueAt(trigger({ type: "cron" }), "cron_expression").expected, /\(missing\)$/);
  assert.match(issueAt(trigger({ type: "file_watch" }), "watch_path").expected, /directory path \(missing\)/);
  assert.match(issueAt(trigger({ type: "event" }), "event_type").expected, /\(missing\)/);
  assert.match(issueAt(trigger({ type: "message" }), "topic").expected, /\(missing\)/);
  assert.match(issueAt(trigger({ type: "message", topic: "" }), "topic").expected, /dot-separated/);
  for (const topic of ["a..b", ".a", "a.", "."]) {
    assert.match(
      issueAt(trigger({ type: "message", topic }), "topic").expected,
      /non-empty dot-separated/,
      topic,
    );
  }
  assert.equal(expectOk(trigger({ type: "message", topic: "a.#.*" })).type, "message");
});

Deno.test("a field of another trigger type is refused by name", () => {
  const issue = issueAt(trigger({ type: "cron", cron_expression: "* * * * *", topic: "x" }), "topic");
  assert.equal(
    issue.expected,
    "no such field for a cron trigger; allowed: type, cron_expression, cron_timezone, queue_capacity, custom_config",
  );
  assert.match(
    issueAt(trigger({ type: "webhook", watch_path: "x" }), "watch_path").expected,
    /for a webhook trigger/,
  );
});

Deno.test("the trigger type must be a known type", () => {
  const expected = 'one of "cron", "webhook", "file_watch", "event", "message"';
  assert.equal(issueAt(trigger({ type: "timer" }), "type").expected, expected);
  assert.equal(issueAt(trigger({}), "type").expected, `${expected} (missing)`);
  assert.equal(issueAt(trigger({ type: 1 }), "type").expected, `${expected} (got a number)`);
  assert.equal(issueAt(trigger("cron"), "(config)").expected, "a trigger object (got a string)");
});

Deno.test("cron expressions and time zones are validated at config time", () => {
  assert.match(
    issueAt(trigger({ type: "cron", cron_expression: "every minute" }), "cron_expression").expected,
    /5 fields/,
  );
  assert.match(
    issueAt(trigger({ type: "cron", cron_expression: 5 }), "cron_expression").expected,
    /got a number/,
  );
  assert.equal(
    expectOk(trigger({ type: "cron", cron_expression: "0 0 9 * * *", cron_timezone: "Asia/Tokyo" })).type,
    "cron",
  );
  assert.match(
    issueAt(
      trigger({ type: "cron", cron_expression: "* * * * *", cron_timezone: "Nowhere/City" }),
      "cron_timezone",
    ).expected,
    /IANA/,
  );
});

Deno.test("webhook fields keep their rules", () => {
  assert.match(
    issueAt(trigger({ type: "webhook", webhook_port: 70000 }), "webhook_port").expected,
    /from 1 to 65535/,
  );
  assert.match(
    issueAt(trigger({ type: "webhook", webhook_port: "9090" }), "webhook_port").expected,
    /got a string/,
  );
  assert.match(
    issueAt(trigger({ type: "webhook", webhook_path: "hook" }), "webhook_path").expected,
    /starting with "\/"/,
  );
  assert.match(
    issueAt(trigger({ type: "webhook", hmac_secret: "short" }), "hmac_secret").expected,
    /^must be at least 16 characters \(got 5\)$/,
  );
  assert.equal(expectOk(trigger({ type: "webhook", hmac_secret: "0123456789abcdef" })).type, "webhook");
  assert.equal(
    expectOk(trigger({ type: "webhook", hmac_secret: "${HOOK}" })).type,
    "webhook",
    "a reference is checked once resolved, at start",
  );
});

Deno.test("file watch lists must not be empty", () => {
  assert.match(
    issueAt(trigger({ type: "file_watch", watch_path: "x", watch_patterns: [] }), "watch_patterns").expected,
    /non-empty/,
  );
  assert.match(
    issueAt(trigger({ type: "file_watch", watch_path: "x", watch_events: ["deleted"] }), "watch_events[0]")
      .expected,
    /"created", "modified"/,
  );
});

Deno.test("the triggers list reports issues by index and holds at most 100", () => {
  const issues = expectIssues(
    parseSection("triggers", [{ type: "webhook" }, { type: "cron", cron_expression: "bad" }]),
  );
  assert.deepEqual(issues.map((issue) => issue.field), ["triggers[1].cron_expression"]);
  const many = Array.from({ length: 101 }, () => ({ type: "webhook" }));
  assert.match(issueAt(parseSection("triggers", many), "triggers").expected, /at most 100.*too many items/);
});

Deno.test("signature_tolerance is an integer from 0 to 3600 that needs hmac_secret when above 0", () => {
  const secret = "0123456789abcdef";
  const on = expectOk(trigger({ type: "webhook", hmac_secret: secret, signature_tolerance: 300 }));
  assert.equal(on.type === "webhook" && on.signature_tolerance, 300);
  const absent = expectOk(trigger({ type: "webhook" }));
  assert.equal("signature_tolerance" in absent, false, "no default: stable ids of existing webhooks keep");
  assert.equal(expectOk(trigger({ type: "webhook", signature_tolerance: 0 })).type, "webhook", "0 is off");
  assert.match(
    issueAt(trigger({ type: "webhook", signature_tolerance: 300 }), "signature_tolerance").expected,
    /without hmac_secret/,
  );
  for (const bad of [-1, 3601, 1.5, "300"]) {
    assert.ok(
      issueAt(
        trigger({ type: "webhook", hmac_secret: secret, signature_tolerance: bad }),
        "signature_tolerance",
      ),
      String(bad),
    );
  }
  assert.equal(
    expectOk(trigger({ type: "webhook", hmac_secret: "${HOOK}", signature_tolerance: 60 })).type,
    "webhook",
  );
});

Deno.test("queue_capacity is an optional integer from 1 to 100000 on every trigger, with no default", () => {
  const webhook = expectOk(parseSection("triggers", [{ type: "webhook", queue_capacity: 5 }]));
  assert.equal(webhook[0].queue_capacity, 5);
  const plain = expectOk(parseSection("triggers", [{ type: "event", event_type: "x" }]));
  assert.equal("queue_capacity" in plain[0], false, "absent stays absent: stable ids do not change");
  for (const bad of [0, 100_001, 2.5, "10"]) {
    const result = parseSection("triggers", [{ type: "message", topic: "a", queue_capacity: bad }]);
    assert.match(issueAt(result, "triggers[0].queue_capacity").expected, /from 1 to 100000/);
  }
});
