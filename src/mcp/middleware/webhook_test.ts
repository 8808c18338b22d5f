import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { testContext, testTool } from "../_test_context.ts";
import { MAX_WEBHOOKS_IN_FLIGHT, webhookMiddleware } from "./webhook.ts";
import type { WebhookPayload } from "./webhook.ts";

interface Received {
  body: WebhookPayload;
  headers: Headers;
}

/** A receiver on 127.0.0.1 that records posts; `answer` decides each response. */
async function receiver(
  answer: (received: Received) => Response | Promise<Response> = () => new Response("ok"),
) {
  const received: Received[] = [];
  const listening = Promise.withResolvers<number>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => listening.resolve(port) },
    async (request) => {
      const entry = { body: await request.json() as WebhookPayload, headers: request.headers };
      received.push(entry);
      return await answer(entry);
    },
  );
  const port = await listening.promise;
  return {
    url: `http://127.0.0.1:${port}/hooks?token=secret`,
    received,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

function call(name = "search") {
  return testContext({ tool: testTool({ name }), requestId: "req-7" });
}

Deno.test("a successful call posts tool.call and tool.success with the call's identity and metadata", async () => {
  await using hook = await receiver();
  const mw = webhookMiddleware({ url: hook.url, headers: { "x-hook-secret": "s3" } });
  const { ctx } = call();
  ctx.clientId = "alice";
  const result = await mw(ctx, () => {
    ctx.state.response_metadata = { rows: 3 };
    return Promise.resolve("found");
  });
  assert.equal(result, "found");
  await mw.flush();
  const bodies = hook.received.map((r) => r.body).sort((a, b) => a.event.localeCompare(b.event));
  assert.deepEqual(bodies.map(({ timestamp: _t, ...rest }) => rest), [
    { event: "tool.call", tool: "search", client_id: "alice", request_id: "req-7" },
    { event: "tool.success", tool: "search", client_id: "alice", request_id: "req-7", metadata: { rows: 3 } },
  ]);
  for (const body of bodies) assert.equal(new Date(body.timestamp).toISOString(), body.timestamp);
  for (const { headers } of hook.received) {
    assert.equal(headers.get("x-hook-secret"), "s3");
    assert.equal(headers.get("content-type"), "application/json");
  }
});

Deno.test("a failed call posts tool.error with the code and safe message only", async () => {
  await using hook = await receiver();
  const mw = webhookMiddleware({ url: hook.url, events: ["tool.error"] });
  const denied = new ToolError("NOT_FOUND", "No order 42");
  await assert.rejects(mw(call().ctx, () => Promise.reject(denied)), (e) => e === denied);
  await assert.rejects(mw(call().ctx, () => Promise.reject(new Error("password=hunter2 leaked"))), /hunter2/);
  assert.equal(await mw(call().ctx, () => Promise.resolve("fine")), "fine");
  // A round waiting for input (input_required) is not an error: the call runs again.
  const waiting = new InputRequiredSignal({ e1: { method: "elicitation/create" } });
  await assert.rejects(mw(call().ctx, () => Promise.reject(waiting)), (e) => e === waiting);
  await mw.flush();
  const bodies = hook.received.map((r) => r.body).sort((a, b) =>
    String(a.error?.code).localeCompare(String(b.error?.code))
  );
  assert.deepEqual(bodies.map((b) => [b.event, b.client_id, b.error]), [
    ["tool.error", null, { code: "INTERNAL_ERROR", message: "An internal error occurred." }],
    ["tool.error", null, { code: "NOT_FOUND", message: "No order 42" }],
  ]);
  assert.ok(!JSON.stringify(hook.received.map((r) => r.body)).includes("hunter2"));
});

Deno.test("a slow receiver does not delay the tool result", async () => {
  const release = Promise.withResolvers<void>();
  const arrived = Promise.withResolvers<void>();
  await using hook = await receiver(async () => {
    arrived.resolve();
    await release.promise;
    return new Response("late");
  });
  const mw = webhookMiddleware({ url: hook.url, events: ["tool.call"] });
  const { ctx, logs } = call();
  assert.equal(await mw(ctx, () => Promise.resolve("fast")), "fast");
  await arrived.promise;
  let flushed = false;
  const flushing = mw.flush().then(() => flushed = true);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(flushed, false, "the post is still waiting for the receiver");
  release.resolve();
  await flushing;
  assert.equal(logs.length, 0);
});

Deno.test("failing, hanging and unreachable receivers are logged as warnings, never errors of the call", async () => {
  const hang = Promise.withResolvers<void>();
  await using failing = await receiver(() => new Response("no", { status: 500 }));
  await using hanging = await receiver(async () => (await hang.promise, new Response("too late")));
  const { ctx, logs } = call();
  const failingMw = webhookMiddleware({ url: failing.url, events: ["tool.success"] });
  assert.equal(await failingMw(ctx, () => Promise.resolve(1)), 1);
  await failingMw.flush();
  const hangingMw = webhookMiddleware({ url: hanging.url, events: ["tool.success"], timeout: 0.2 });
  assert.equal(await hangingMw(ctx, () => Promise.resolve(2)), 2);
  await hangingMw.flush();
  hang.resolve();
  const closed = webhookMiddleware({ url: "http://127.0.0.1:9/hooks", events: ["tool.success"] });
  assert.equal(await closed(ctx, () => Promise.resolve(3)), 3);
  await closed.flush();
  assert.deepEqual(
    logs.map((r) => [r.level, r.message]),
    Array(3).fill(["warning", "webhook delivery failed"]),
  );
  assert.equal(logs[0].fields.status, 500);
  assert.match(String(logs[1].fields.error), /TimeoutError/);
  assert.ok(logs.every((r) => !String(r.fields.url).includes("secret")), "the query never reaches the log");
});

Deno.test("a custom fetch is used, and past the in-flight cap notifications are dropped", async () => {
  const pending: Array<() => void> = [];
  const fakeFetch: typeof fetch = (_input, init) => {
    assert.ok(init?.signal instanceof AbortSignal);
    return new Promise((resolve) => pending.push(() => resolve(new Response(null, { status: 204 }))));
  };
  const mw = webhookMiddleware({
    url: "https://hooks.example.com/x",
    events: ["tool.call"],
    fetch: fakeFetch,
  });
  const { ctx, logs } = call();
  for (let i = 0; i <= MAX_WEBHOOKS_IN_FLIGHT; i++) await mw(ctx, () => Promise.resolve(i));
  assert.equal(pending.length, MAX_WEBHOOKS_IN_FLIGHT);
  assert.deepEqual(logs.map((r) => r.message), ["webhook dropped: too many in flight"]);
  for (const answer of pending) answer();
  await mw.flush();
});

Deno.test("resource reads pass through and unserialisable metadata is dropped with a warning", async () => {
  const posts: string[] = [];
  const fakeFetch: typeof fetch = (
    _input,
    init,
  ) => (posts.push(String(init?.body)), Promise.resolve(new Response()));
  const mw = webhookMiddleware({ url: "http://127.0.0.1:1/x", fetch: fakeFetch });
  const { ctx, logs } = call();
  Object.defineProperty(ctx, "requestType", { value: "resource" });
  assert.equal(await mw(ctx, () => Promise.resolve("r")), "r");
  assert.equal(posts.length, 0);
  const tool = call();
  tool.ctx.state.response_metadata = { big: 1n };
  assert.equal(await mw(tool.ctx, () => Promise.resolve("t")), "t");
  await mw.flush();
  assert.equal(logs.length, 0);
  assert.equal(posts.length, 0);
  assert.deepEqual(
    tool.logs.map((r) => r.message),
    Array(2).fill("webhook dropped: payload not serialisable"),
  );
});

Deno.test("bad webhook options are refused at construction", () => {
  const url = "https://hooks.example.com/x";
  assert.throws(
    () => webhookMiddleware({ url, events: ["tool.done" as never] }),
    /unknown event 'tool.done'/,
  );
  assert.throws(() => webhookMiddleware({ url: "ftp://x/y" }), /http or https/);
  assert.throws(() => webhookMiddleware({ url: "not a url" }), /http or https/);
  assert.throws(() => webhookMiddleware({ url, timeout: 0 }), RangeError);
  assert.throws(() => webhookMiddleware({ url, headers: { "x-n": 1 as never } }), /must be a string/);
  assert.throws(() => webhookMiddleware({ url, retries: 3 } as never), /unknown option 'retries'/);
  assert.throws(() => webhookMiddleware({ url, fetch: "curl" as never }), /fetch must be a function/);
});

Deno.test("a round that ends input_required posts tool.input_required with the pending keys, never tool.error", async () => {
  await using hook = await receiver();
  const mw = webhookMiddleware({ url: hook.url });
  const signal = new InputRequiredSignal({
    e1: { method: "elicitation/create", params: { message: "Approve sending 5?" } },
  });
  await assert.rejects(mw(call("transfer").ctx, () => Promise.reject(signal)), (e) => e === signal);
  await mw.flush();
  const bodies = hook.received.map((r) => r.body).sort((a, b) => a.event.localeCompare(b.event));
  assert.deepEqual(bodies.map(({ timestamp: _t, ...rest }) => rest), [
    { event: "tool.call", tool: "transfer", client_id: null, request_id: "req-7" },
    {
      event: "tool.input_required",
      tool: "transfer",
      client_id: null,
      request_id: "req-7",
      pending: { e1: "elicitation/create" },
    },
  ]);
  const errorsOnly = webhookMiddleware({ url: hook.url, events: ["tool.error"] });
  await assert.rejects(errorsOnly(call().ctx, () => Promise.reject(signal)), (e) => e === signal);
  await errorsOnly.flush();
  assert.equal(hook.received.length, 2, "a receiver of errors only hears nothing of the round");
});
