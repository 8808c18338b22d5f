import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { WEBHOOK_REPLAY_MEMORY, WebhookSignature } from "./webhook_signature.ts";

const SECRET = "whsec-test-0123456789";
const NOW = 1_700_000_000; // seconds
const ENCODER = new TextEncoder();

function clock(seconds = NOW) {
  const time = { seconds };
  return { time, now: () => time.seconds * 1000 };
}

/** Headers of a request signed Slack/Stripe style over `<timestamp>.<body>`. */
function signed(body: string, timestamp: number | string, secret = SECRET): Headers {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return new Headers({ "x-webhook-timestamp": String(timestamp), "x-webhook-signature": `sha256=${mac}` });
}

function check(signature: WebhookSignature, headers: Headers, body: string) {
  return signature.check(headers, ENCODER.encode(body));
}

Deno.test("without a tolerance the signature covers the body alone and may repeat", () => {
  const signature = new WebhookSignature(SECRET);
  const mac = createHmac("sha256", SECRET).update("{}").digest("hex");
  const headers = new Headers({ "x-webhook-signature": `sha256=${mac}` });
  assert.equal(check(signature, headers, "{}"), "ok");
  assert.equal(check(signature, headers, "{}"), "ok");
  assert.equal(check(signature, headers, "{ }"), "invalid");
  assert.equal(
    check(signature, signed("{}", NOW), "{}"),
    "invalid",
    "a timestamped signature is not the body's",
  );
  assert.equal(signature.remembered, 0);
});

Deno.test("a timestamp within the tolerance and a signature over <timestamp>.<body> are accepted", () => {
  const { now } = clock();
  const signature = new WebhookSignature(SECRET, { toleranceSeconds: 300, now });
  assert.equal(check(signature, signed('{"a":1}', NOW), '{"a":1}'), "ok");
  assert.equal(check(signature, signed('{"a":1}', NOW - 300), '{"a":1}'), "ok", "the edge of the window");
  assert.equal(
    check(signature, signed('{"a":1}', NOW + 300), '{"a":1}'),
    "ok",
    "a clock ahead by the tolerance",
  );
  assert.equal(signature.remembered, 3);
});

Deno.test("a stale timestamp, or one too far in the future, is refused even with a good signature", () => {
  const { now } = clock();
  const signature = new WebhookSignature(SECRET, { toleranceSeconds: 300, now });
  assert.equal(check(signature, signed("{}", NOW - 301), "{}"), "stale");
  assert.equal(check(signature, signed("{}", NOW + 301), "{}"), "stale", "clock skew beyond the tolerance");
  assert.equal(check(signature, signed("{}", 0), "{}"), "stale");
  assert.equal(signature.remembered, 0);
});

Deno.test("a missing or malformed timestamp is refused before the signature is checked", () => {
  const signature = new WebhookSignature(SECRET, { toleranceSeconds: 60, now: clock().now });
  const good = signed("{}", NOW);
  const without = new Headers({ "x-webhook-signature": good.get("x-webhook-signature")! });
  assert.equal(check(signature, without, "{}"), "no_timestamp");
  for (const bad of ["", "abc", "-5", "1.5", "1e9", "9999999999999"]) {
    const headers = new Headers(good);
    headers.set("x-webhook-timestamp", bad);
    assert.equal(check(signature, headers, "{}"), "no_timestamp", bad);
  }
  const changed = new Headers(good);
  changed.set("x-webhook-timestamp", String(NOW + 1));
  assert.equal(check(signature, changed, "{}"), "invalid", "the timestamp is covered by the signature");
  assert.equal(check(signature, good, "{}"), "ok");
});

Deno.test("a signature accepted within the window is refused as replayed until the window passes", () => {
  const { time, now } = clock();
  const signature = new WebhookSignature(SECRET, { toleranceSeconds: 300, now });
  const headers = signed('{"pay":10}', NOW);
  assert.equal(check(signature, headers, '{"pay":10}'), "ok");
  assert.equal(check(signature, headers, '{"pay":10}'), "replayed");
  const upper = new Headers(headers);
  upper.set(
    "x-webhook-signature",
    headers.get("x-webhook-signature")!.toUpperCase().replace("SHA256", "sha256"),
  );
  assert.equal(check(signature, upper, '{"pay":10}'), "replayed", "hex case does not make it new");
  time.seconds = NOW + 300;
  assert.equal(check(signature, headers, '{"pay":10}'), "replayed", "still inside the window");
  time.seconds = NOW + 301;
  assert.equal(
    check(signature, headers, '{"pay":10}'),
    "stale",
    "outside the window the timestamp refuses it",
  );
  assert.equal(signature.remembered, 0, "forgotten once its timestamp left the window");
});

Deno.test("release forgets a reserved signature so the same request can be sent again", () => {
  const signature = new WebhookSignature(SECRET, { toleranceSeconds: 300, now: clock().now });
  const headers = signed("{}", NOW);
  assert.equal(check(signature, headers, "{}"), "ok");
  signature.release(headers);
  assert.equal(signature.remembered, 0);
  assert.equal(check(signature, headers, "{}"), "ok");
});

Deno.test("the replay memory is bounded: when full of live signatures new ones are refused busy, expired ones make room", () => {
  const { time, now } = clock();
  const signature = new WebhookSignature(SECRET, { toleranceSeconds: 10, memory: 3, now });
  for (let i = 0; i < 3; i++) assert.equal(check(signature, signed(`${i}`, NOW), `${i}`), "ok");
  assert.equal(check(signature, signed("3", NOW), "3"), "busy");
  assert.equal(signature.remembered, 3);
  assert.equal(check(signature, signed("0", NOW), "0"), "replayed", "a full memory still refuses replays");
  time.seconds = NOW + 11;
  assert.equal(check(signature, signed("3", NOW + 11), "3"), "ok");
  assert.equal(signature.remembered, 1, "the expired ones were dropped");
  assert.equal(WEBHOOK_REPLAY_MEMORY, 100_000);
});

Deno.test("expired signatures behind a live one are swept when the memory is full", () => {
  const { time, now } = clock();
  const signature = new WebhookSignature(SECRET, { toleranceSeconds: 10, memory: 2, now });
  assert.equal(check(signature, signed("late", NOW + 10), "late"), "ok"); // kept until NOW + 20
  assert.equal(check(signature, signed("early", NOW - 10), "early"), "ok"); // kept until NOW
  time.seconds = NOW + 5;
  assert.equal(check(signature, signed("new", NOW + 5), "new"), "ok");
  assert.equal(signature.remembered, 2);
});

Deno.test("the constructor refuses an empty secret, a negative or fractional tolerance and an empty memory", () => {
  assert.throws(() => new WebhookSignature(""), RangeError);
  assert.throws(() => new WebhookSignature(SECRET, { toleranceSeconds: -1 }), RangeError);
  assert.throws(() => new WebhookSignature(SECRET, { toleranceSeconds: 1.5 }), RangeError);
  assert.throws(() => new WebhookSignature(SECRET, { memory: 0 }), RangeError);
});
