import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { WebhookTrigger, type WebhookTriggerOptions } from "./webhook_trigger.ts";

const SECRET = "whsec-test-0123456789";

function trigger(options: Partial<WebhookTriggerOptions> = {}): WebhookTrigger {
  return new WebhookTrigger({
    path: "/hook",
    port: 9090,
    host: "127.0.0.1",
    hmacSecret: SECRET,
    signatureTolerance: 300,
    ...options,
  });
}

function post(body: string, headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:9090/hook", { method: "POST", body, headers });
}

function signed(body: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const mac = createHmac("sha256", SECRET).update(`${timestamp}.${body}`).digest("hex");
  return { "x-webhook-timestamp": String(timestamp), "x-webhook-signature": `sha256=${mac}` };
}

async function call(hook: WebhookTrigger, request: Request) {
  const response = await hook.handler(request);
  return {
    status: response.status,
    body: await response.json(),
    retryAfter: response.headers.get("retry-after"),
  };
}

Deno.test("with a tolerance: a fresh timestamped signature is 202, its replay 409, and only one event is queued", async () => {
  const hook = trigger();
  const headers = signed('{"pay":10}');
  const first = await call(hook, post('{"pay":10}', headers));
  assert.equal(first.status, 202);
  const replay = await call(hook, post('{"pay":10}', headers));
  assert.equal(replay.status, 409);
  assert.deepEqual(replay.body, { status: "error", message: "signature already used" });
  assert.equal(hook.queueSize, 1);
  const event = await hook.waitForNext();
  assert.equal(event.metadata.signature_verified, true);
  const seen = event.metadata.headers as Record<string, string>;
  assert.equal(seen["x-webhook-signature"], undefined);
  assert.equal(seen["x-webhook-timestamp"], headers["x-webhook-timestamp"]);
});

Deno.test("with a tolerance: a stale, future or missing timestamp and a body-only signature are 401", async () => {
  const hook = trigger();
  const now = Math.floor(Date.now() / 1000);
  const stale = await call(hook, post("{}", signed("{}", now - 330)));
  assert.deepEqual([stale.status, stale.body.message], [401, "timestamp outside the tolerance window"]);
  const future = await call(hook, post("{}", signed("{}", now + 330)));
  assert.deepEqual([future.status, future.body.message], [401, "timestamp outside the tolerance window"]);
  const { "x-webhook-signature": signature } = signed("{}");
  const missing = await call(hook, post("{}", { "x-webhook-signature": signature }));
  assert.deepEqual([missing.status, missing.body.message], [401, "missing or invalid timestamp"]);
  const bodyOnly = `sha256=${createHmac("sha256", SECRET).update("{}").digest("hex")}`;
  const old = await call(
    hook,
    post("{}", { "x-webhook-timestamp": String(now), "x-webhook-signature": bodyOnly }),
  );
  assert.deepEqual([old.status, old.body.message], [401, "invalid signature"]);
  assert.equal(hook.queueSize, 0);
});

Deno.test("with a tolerance: a request refused for a full queue may be sent again with the same signature", async () => {
  const hook = trigger({ capacity: 1 });
  assert.equal((await call(hook, post("1", signed("1")))).status, 202);
  const headers = signed("2");
  const full = await call(hook, post("2", headers));
  assert.deepEqual([full.status, full.body.message], [503, "queue full"]);
  await hook.waitForNext();
  assert.equal((await call(hook, post("2", headers))).status, 202, "the refused request was not remembered");
  assert.equal((await hook.waitForNext()).payload, 2);
});

Deno.test("with a tolerance: concurrent copies of one signed request queue one event", async () => {
  const hook = trigger();
  const headers = signed('"once"');
  const answers = await Promise.all(Array.from({ length: 5 }, () => call(hook, post('"once"', headers))));
  assert.deepEqual(answers.map((a) => a.status).sort(), [202, 409, 409, 409, 409]);
  assert.equal(hook.queueSize, 1);
});

Deno.test("a tolerance without a secret is refused; 0 without a secret is off", () => {
  assert.throws(() => trigger({ hmacSecret: undefined }), RangeError);
  assert.equal(trigger({ hmacSecret: undefined, signatureTolerance: 0 }).type, "webhook");
  assert.throws(() => trigger({ signatureTolerance: -1 }), RangeError);
});
