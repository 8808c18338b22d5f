import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { Logger, memorySink } from "../log.ts";
import { TriggerCancelledError } from "./types.ts";
import { WEBHOOK_MAX_BODY_BYTES, WebhookTrigger, type WebhookTriggerOptions } from "./webhook_trigger.ts";

const SECRET = "whsec-test-0123456789";
const BASE = "http://127.0.0.1:9090";

function trigger(options: Partial<WebhookTriggerOptions> = {}): WebhookTrigger {
  return new WebhookTrigger({ path: "/hook", port: 9090, host: "127.0.0.1", ...options });
}

function sign(body: string | Uint8Array, secret = SECRET): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

function request(
  path: string,
  init: { method?: string; body?: BodyInit | null; headers?: Record<string, string> } = {},
): Request {
  const method = init.method ?? "POST";
  return new Request(
    `${BASE}${path}`,
    { method, body: init.body, headers: init.headers, duplex: "half" } as RequestInit,
  );
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  text: string;
}

async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
  return { status: response.status, body: JSON.parse(text), headers: response.headers, text };
}

async function call(hook: WebhookTrigger, req: Request, remoteAddr?: string): Promise<Answer> {
  return read(await hook.handler(req, remoteAddr === undefined ? undefined : { remoteAddr }));
}

/** A stream of `chunkSize`-byte chunks of `x`, `total` bytes at most (endless by default). */
function chunks(chunkSize: number, total = Infinity) {
  const seen = { bytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.bytes >= total) return controller.close();
      seen.bytes += chunkSize;
      controller.enqueue(new Uint8Array(chunkSize).fill(0x78));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

Deno.test("a JSON object POST is answered 202 with the event id and queued with the request facts", async () => {
  const hook = trigger();
  const body = JSON.stringify({ order: 7, items: ["a"] });
  const answer = await call(
    hook,
    request("/hook?source=shop&x=1&x=2", {
      body,
      headers: { "Content-Type": "application/json", "X-Custom": "v" },
    }),
    "10.1.2.3",
  );
  assert.equal(answer.status, 202);
  assert.deepEqual(Object.keys(answer.body).sort(), ["event_id", "status"]);
  assert.equal(answer.body.status, "accepted");
  const event = await hook.waitForNext();
  assert.equal(event.event_id, answer.body.event_id);
  assert.equal(event.trigger_id, "webhook-9090/hook");
  assert.equal(event.trigger_type, "webhook");
  assert.deepEqual(event.payload, { order: 7, items: ["a"] });
  assert.deepEqual(event.metadata, {
    method: "POST",
    path: "/hook",
    query: { source: "shop", x: "2" },
    headers: { "content-type": "application/json", "x-custom": "v" },
    remote: "10.1.2.3",
    signature_verified: false,
  });
});

Deno.test("a JSON array, a JSON string and a text body become the payload as they are", async () => {
  const hook = trigger();
  const cases: Array<[string, unknown]> = [
    ["[1,2,3]", [1, 2, 3]],
    ['"hello"', "hello"],
    ["42", 42],
    ["not json {", "not json {"],
    ["", ""],
  ];
  for (const [body, payload] of cases) {
    assert.equal((await call(hook, request("/hook", { body }))).status, 202, body);
    const event = await hook.waitForNext();
    assert.deepEqual(event.payload, payload, body);
    assert.equal(event.metadata.remote, null);
  }
});

Deno.test("credential and signature headers are removed from metadata", async () => {
  const hook = trigger({ hmacSecret: SECRET });
  const body = "{}";
  const headers = {
    Authorization: "Bearer t0ken",
    "Proxy-Authorization": "Basic eA==",
    Cookie: "session=abc",
    "Set-Cookie": "a=b",
    "X-Webhook-Signature": sign(body),
    "X-Request-Id": "r-1",
  };
  assert.equal((await call(hook, request("/hook", { body, headers }))).status, 202);
  const event = await hook.waitForNext();
  assert.deepEqual(event.metadata.headers, {
    "content-type": "text/plain;charset=UTF-8",
    "x-request-id": "r-1",
  });
  assert.equal(event.metadata.signature_verified, true);
});

Deno.test("a good signature is accepted and a bad, missing or malformed one is 401 with nothing queued", async () => {
  const hook = trigger({ hmacSecret: SECRET });
  const body = '{"secret_field":"payload-value"}';
  const good = await call(hook, request("/hook", { body, headers: { "X-Webhook-Signature": sign(body) } }));
  assert.equal(good.status, 202);
  assert.equal((await hook.waitForNext()).event_id, good.body.event_id);
  const upper = `sha256=${sign(body).slice(7).toUpperCase()}`;
  assert.equal(
    (await call(hook, request("/hook", { body, headers: { "X-Webhook-Signature": upper } }))).status,
    202,
  );
  await hook.waitForNext();
  const refused = [
    sign(body, "another-secret"),
    sign(`${body} `),
    sign(body).slice(7),
    `sha1=${sign(body).slice(7)}`,
    `${sign(body)}00`,
    "sha256=" + "zz".repeat(32),
    "",
    undefined,
  ];
  for (const signature of refused) {
    const headers: Record<string, string> = signature === undefined
      ? {}
      : { "X-Webhook-Signature": signature };
    const answer = await call(hook, request("/hook", { body, headers }));
    assert.equal(answer.status, 401, String(signature));
    assert.deepEqual(answer.body, { status: "error", message: "invalid signature" });
    assert.ok(!answer.text.includes("payload-value") && !answer.text.includes(SECRET));
  }
  assert.equal(hook.queueSize, 0);
});

Deno.test("a full queue answers 503 queue full with Retry-After 1 and counts the drop", async () => {
  const sink = memorySink();
  const hook = trigger({ capacity: 1, logger: new Logger("test", { sink }) });
  assert.equal((await call(hook, request("/hook", { body: "1" }))).status, 202);
  const full = await call(hook, request("/hook", { body: "2" }));
  assert.equal(full.status, 503);
  assert.deepEqual(full.body, { status: "error", message: "queue full" });
  assert.equal(full.headers.get("retry-after"), "1");
  assert.equal(hook.dropped, 1);
  assert.equal(sink.records[0]?.level, "warning");
  assert.equal((await hook.waitForNext()).payload, 1);
});

Deno.test("accepting() is asked per POST and its reason refuses with 503 unavailable and Retry-After 30", async () => {
  let reason: string | undefined = "process failed";
  let calls = 0;
  const hook = trigger({
    hmacSecret: SECRET,
    accepting: () => {
      calls++;
      return reason;
    },
  });
  const headers = { "X-Webhook-Signature": sign("{}") };
  const refused = await call(hook, request("/hook", { body: "{}", headers }));
  assert.equal(refused.status, 503);
  assert.deepEqual(refused.body, { status: "unavailable", message: "process failed" });
  assert.equal(refused.headers.get("retry-after"), "30");
  assert.equal(hook.queueSize, 0);
  assert.equal(
    (await call(hook, request("/hook", { body: "{}" }))).status,
    401,
    "authentication comes first",
  );
  reason = undefined;
  assert.equal((await call(hook, request("/hook", { body: "{}", headers }))).status, 202);
  assert.equal(calls, 2);
});

Deno.test("GET /health answers healthy with the trigger id and queue size", async () => {
  const hook = trigger({ triggerId: "wh-1" });
  await call(hook, request("/hook", { body: "{}" }));
  const answer = await call(hook, request("/health", { method: "GET" }));
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { status: "healthy", trigger_id: "wh-1", queue_size: 1 });
});

Deno.test("other methods get 405 with Allow, other paths 404, all as JSON", async () => {
  const hook = trigger();
  for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
    const answer = await call(hook, request("/hook", { method, body: method === "GET" ? null : "{}" }));
    assert.equal(answer.status, 405, method);
    assert.equal(answer.headers.get("allow"), "POST");
    assert.equal(answer.body.status, "error");
    assert.equal(typeof answer.body.message, "string");
  }
  const health = await call(hook, request("/health", { body: "{}" }));
  assert.equal(health.status, 405);
  assert.equal(health.headers.get("allow"), "GET");
  for (const path of ["/other", "/hook/", "/", "/hooks"]) {
    const answer = await call(hook, request(path, { body: "{}" }));
    assert.equal(answer.status, 404, path);
    assert.deepEqual(answer.body, { status: "error", message: "not found" });
  }
  assert.equal(hook.queueSize, 0);
});

Deno.test("a Content-Length over 1 MiB is 413 before the body is read", async () => {
  const hook = trigger();
  const { stream, seen } = chunks(1024);
  const headers = { "Content-Length": String(WEBHOOK_MAX_BODY_BYTES + 1) };
  const answer = await call(hook, request("/hook", { body: stream, headers }));
  assert.equal(answer.status, 413);
  assert.deepEqual(answer.body, { status: "error", message: "payload too large" });
  assert.ok(seen.bytes <= 64 * 1024, `read ${seen.bytes} bytes`);
  await stream.cancel();
});

Deno.test("a chunked body over 1 MiB is 413 and the stream is cancelled", async () => {
  const hook = trigger();
  const { stream, seen } = chunks(64 * 1024, 2 * WEBHOOK_MAX_BODY_BYTES);
  const answer = await call(hook, request("/hook", { body: stream }));
  assert.equal(answer.status, 413);
  assert.equal(seen.cancelled, true);
  assert.ok(seen.bytes < 2 * WEBHOOK_MAX_BODY_BYTES);
  assert.equal(hook.queueSize, 0);
});

Deno.test("a body of exactly 1 MiB is accepted", async () => {
  const hook = trigger();
  const { stream } = chunks(64 * 1024, WEBHOOK_MAX_BODY_BYTES);
  assert.equal((await call(hook, request("/hook", { body: stream }))).status, 202);
  assert.equal(((await hook.waitForNext()).payload as string).length, WEBHOOK_MAX_BODY_BYTES);
});

Deno.test("a body that does not arrive in time is 408", async () => {
  const hook = trigger({ bodyTimeoutMs: 30 });
  const stream = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
  const answer = await call(hook, request("/hook", { body: stream }));
  assert.equal(answer.status, 408);
  assert.equal(answer.body.status, "error");
});

Deno.test("a failing accepting() is 500 without its message", async () => {
  const sink = memorySink();
  const hook = trigger({
    logger: new Logger("test", { sink }),
    accepting: () => {
      throw new Error("boom secret detail");
    },
  });
  const answer = await call(hook, request("/hook", { body: "{}" }));
  assert.equal(answer.status, 500);
  assert.deepEqual(answer.body, { status: "error", message: "internal error" });
  assert.equal(sink.records[0]?.level, "error");
  assert.ok(!JSON.stringify(sink.records).includes("boom"));
});

Deno.test("stop enqueues the sentinel: waitForNext rejects and later POSTs are refused", async () => {
  const hook = trigger();
  await call(hook, request("/hook", { body: "1" }));
  await hook.stop();
  assert.equal((await hook.waitForNext()).payload, 1);
  await assert.rejects(hook.waitForNext(), TriggerCancelledError);
  const late = await call(hook, request("/hook", { body: "2" }));
  assert.equal(late.status, 503);
  assert.deepEqual(late.body, { status: "unavailable", message: "trigger stopped" });
  await assert.rejects(hook.waitForNext(), TriggerCancelledError);
});

Deno.test("the default trigger id is webhook-<port><path> with the configured port", () => {
  assert.equal(trigger().triggerId, "webhook-9090/hook");
  assert.equal(trigger({ port: 0, path: "/in/github" }).triggerId, "webhook-0/in/github");
  assert.equal(trigger().queueCapacity, 1000);
  assert.equal(new WebhookTrigger({ path: "/hook", port: 9090 }).host, "0.0.0.0");
});

Deno.test("the constructor refuses a bad path, port or an empty secret", () => {
  assert.throws(() => trigger({ path: "hook" }), RangeError);
  assert.throws(() => trigger({ path: "/health" }), RangeError);
  assert.throws(() => trigger({ port: 70000 }), RangeError);
  assert.throws(() => trigger({ port: 1.5 }), RangeError);
  assert.throws(() => trigger({ hmacSecret: "" }), RangeError);
  assert.throws(() => trigger({ capacity: 0 }), RangeError);
});

// Real socket (127.0.0.1, port 0).

async function served(options: Partial<WebhookTriggerOptions> = {}): Promise<WebhookTrigger> {
  const hook = trigger({ port: 0, ...options });
  await hook.start();
  return hook;
}

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  return read(await fetch(url, { method: "POST", ...init }));
}

Deno.test("over a socket: signatures are checked and the remote address is 127.0.0.1", async () => {
  await using hook = await served({ hmacSecret: SECRET });
  assert.notEqual(hook.port, 0);
  assert.equal(hook.url, `http://127.0.0.1:${hook.port}`);
  assert.equal(hook.triggerId, "webhook-0/hook");
  const body = JSON.stringify({ ok: true });
  const good = await send(`${hook.url}/hook?a=1`, { body, headers: { "X-Webhook-Signature": sign(body) } });
  assert.equal(good.status, 202);
  const event = await hook.waitForNext();
  assert.equal(event.event_id, good.body.event_id);
  assert.deepEqual(event.payload, { ok: true });
  assert.equal(event.metadata.remote, "127.0.0.1");
  assert.deepEqual(event.metadata.query, { a: "1" });
  assert.equal(event.metadata.signature_verified, true);
  const bad = await send(`${hook.url}/hook`, { body, headers: { "X-Webhook-Signature": sign("other") } });
  assert.equal(bad.status, 401);
  const missing = await send(`${hook.url}/hook`, { body });
  assert.equal(missing.status, 401);
  assert.equal(hook.queueSize, 0);
});

Deno.test("over a socket: a full queue is 503, health and 405 answer", async () => {
  await using hook = await served({ capacity: 1 });
  assert.equal((await send(`${hook.url}/hook`, { body: "1" })).status, 202);
  const full = await send(`${hook.url}/hook`, { body: "2" });
  assert.equal(full.status, 503);
  assert.equal(full.headers.get("retry-after"), "1");
  const health = await send(`${hook.url}/health`, { method: "GET" });
  assert.deepEqual(health.body, { status: "healthy", trigger_id: "webhook-0/hook", queue_size: 1 });
  const wrong = await send(`${hook.url}/hook`, { method: "GET" });
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get("allow"), "POST");
});

Deno.test("over a socket: a 2 MiB chunked body is 413", async () => {
  await using hook = await served();
  const { stream } = chunks(64 * 1024, 2 * WEBHOOK_MAX_BODY_BYTES);
  const answer = await send(`${hook.url}/hook`, { body: stream });
  assert.equal(answer.status, 413);
  assert.deepEqual(answer.body, { status: "error", message: "payload too large" });
  assert.equal(hook.queueSize, 0);
});

Deno.test("over a socket: stop closes the port and ends waiting", async () => {
  const hook = await served();
  const url = `${hook.url}/health`;
  assert.equal((await send(url, { method: "GET" })).status, 200);
  const waiting = hook.waitForNext();
  await hook.stop();
  await assert.rejects(waiting, TriggerCancelledError);
  assert.equal(hook.running, false);
  await assert.rejects(fetch(url), TypeError);
});

Deno.test("start rejects when the port is taken", async () => {
  await using first = await served();
  const second = trigger({ port: first.port });
  await assert.rejects(second.start(), Deno.errors.AddrInUse);
  assert.equal(second.running, false);
  await second.stop();
});
