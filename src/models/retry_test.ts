import assert from "node:assert/strict";
import { resolveRetry, retryDelay } from "./retry.ts";

const retry = resolveRetry({ baseDelayMs: 100, maxDelayMs: 5_000 });

Deno.test("retry defaults to 3 retries from 500 ms capped at 20 s", () => {
  assert.deepEqual(resolveRetry(), { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000 });
});

Deno.test("retry waits double each attempt and stops at the cap", () => {
  assert.deepEqual([1, 2, 3, 7].map((n) => retryDelay(n, { headers: null, retry })), [100, 200, 400, 5_000]);
});

Deno.test("retry honours retry-after-ms before retry-after", () => {
  const headers = new Headers({ "retry-after-ms": "250.4", "retry-after": "3" });
  assert.equal(retryDelay(1, { headers: headers, retry }), 250);
});

Deno.test("retry honours retry-after in seconds and as an HTTP date, capped", () => {
  assert.equal(retryDelay(1, { headers: new Headers({ "retry-after": "2" }), retry }), 2_000);
  assert.equal(retryDelay(1, { headers: new Headers({ "retry-after": "120" }), retry }), 5_000);
  const soon = new Date(Date.now() + 3_000).toUTCString();
  const wait = retryDelay(1, { headers: new Headers({ "retry-after": soon }), retry });
  assert.ok(wait > 1_000 && wait <= 3_000, `${wait}`);
  const past = new Date(Date.now() - 60_000).toUTCString();
  assert.equal(retryDelay(1, { headers: new Headers({ "retry-after": past }), retry }), 0);
});

Deno.test("retry falls back to backoff when retry-after is not understood", () => {
  assert.equal(retryDelay(2, { headers: new Headers({ "retry-after": "soon" }), retry }), 200);
});
