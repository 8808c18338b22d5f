import assert from "node:assert/strict";
import { parseSection } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an empty trigger_delivery section resolves to its defaults", () => {
  assert.deepEqual(expectOk(parseSection("trigger_delivery", {})), {
    scan_payloads: false,
    max_retries: 0,
    retry_backoff: 2,
    retry_backoff_max: 60,
    queue_capacity: 1000,
    dead_letter_size: 100,
    max_payload_chars: 20000,
    max_consecutive_failures: 3,
  });
});

Deno.test("trigger delivery limits keep their bounds", () => {
  assert.match(
    issueAt(parseSection("trigger_delivery", { max_retries: 11 }), "trigger_delivery.max_retries").expected,
    /from 0 to 10/,
  );
  assert.match(
    issueAt(
      parseSection("trigger_delivery", { max_payload_chars: 199 }),
      "trigger_delivery.max_payload_chars",
    ).expected,
    />= 200/,
  );
  assert.match(
    issueAt(parseSection("trigger_delivery", { retry_backoff: 0 }), "trigger_delivery.retry_backoff")
      .expected,
    /> 0/,
  );
  assert.match(
    issueAt(
      parseSection("trigger_delivery", { dead_letter_size: 10001 }),
      "trigger_delivery.dead_letter_size",
    ).expected,
    /from 0 to 10000/,
  );
});

Deno.test("retry_backoff_max may not be below retry_backoff", () => {
  assert.match(
    issueAt(
      parseSection("trigger_delivery", { retry_backoff: 10, retry_backoff_max: 5 }),
      "trigger_delivery.retry_backoff_max",
    ).expected,
    />= retry_backoff/,
  );
  assert.equal(
    expectOk(parseSection("trigger_delivery", { retry_backoff: 5, retry_backoff_max: 5 })).retry_backoff_max,
    5,
  );
});
