import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { ClientContext } from "../client_context.ts";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { RequestContext } from "../request_context.ts";
import { DEAD_SESSION, testContext, testTool } from "../_test_context.ts";
import { Logger } from "../../log.ts";
import {
  declaredRateLimitMiddleware,
  parseRateLimit,
  rateLimitMiddleware,
  TokenBucketLimiter,
} from "./rate_limit.ts";

const ok = () => Promise.resolve("ok");

function caller(clientId?: string, tenantId?: string, tool = "echo", rateLimit?: string): RequestContext {
  const { ctx } = testContext({ tool: testTool({ name: tool, rateLimit }) });
  if (clientId) {
    ctx.clientId = clientId;
    ctx.client = new ClientContext({ clientId, tenantId });
  }
  return ctx;
}

function resourceCaller(name: string, rateLimit: string): RequestContext {
  return new RequestContext({
    serverName: "s",
    definition: {
      kind: "resource",
      name,
      uri: "file:///x",
      mimeType: "text/plain",
      tags: [],
      auth: false,
      roles: [],
      guards: [],
      middleware: [],
      rateLimit,
      handler: () => "x",
    },
    requestType: "resource",
    requestId: "r",
    meta: {},
    arguments: {},
    session: DEAD_SESSION,
    signal: new AbortController().signal,
    logger: new Logger("t", { sink: () => {} }),
  });
}

async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ToolError, "expected a ToolError");
  return error;
}

Deno.test("parseRateLimit reads every unit and refuses malformed specs, naming them", () => {
  const units: Record<string, number> = {
    s: 1,
    sec: 1,
    second: 1,
    m: 60,
    min: 60,
    minute: 60,
    h: 3600,
    hr: 3600,
  };
  for (const [unit, seconds] of Object.entries({ ...units, hour: 3600 })) {
    assert.deepEqual(parseRateLimit(`7/${unit}`), { count: 7, perSeconds: seconds });
  }
  assert.deepEqual(parseRateLimit(" 100 / min "), { count: 100, perSeconds: 60 });
  for (
    const bad of [
      "0/min",
      "-1/min",
      "1.5/min",
      "10/day",
      "10",
      "ten/min",
      "10/mins",
      "",
      "99999999999999999999/s",
    ]
  ) {
    assert.throws(
      () => parseRateLimit(bad),
      (e: unknown) => e instanceof TypeError && e.message.includes(`"${bad}"`),
    );
  }
});

Deno.test("token bucket allows a burst, then refills at the rate and reports the wait", () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const limiter = new TokenBucketLimiter({ ratePerMinute: 60, burst: 3 });
    for (let i = 0; i < 3; i++) assert.equal(limiter.take("a").allowed, true);
    assert.deepEqual(limiter.take("a"), { allowed: false, retryAfterSeconds: 1 });
    assert.equal(limiter.take("b").allowed, true, "keys have separate buckets");
    clock.tick(500);
    assert.deepEqual(limiter.take("a"), { allowed: false, retryAfterSeconds: 0.5 });
    clock.tick(500);
    assert.deepEqual(limiter.take("a"), { allowed: true, retryAfterSeconds: 0 });
    clock.tick(60_000);
    for (let i = 0; i < 3; i++) assert.equal(limiter.take("a").allowed, true, "refill is capped at burst");
    assert.equal(limiter.take("a").allowed, false);
  } finally {
    clock.uninstall();
  }
});

Deno.test("token bucket burst defaults to the rate and bad options are refused", () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const limiter = new TokenBucketLimiter({ ratePerMinute: 2 });
    assert.equal(limiter.take("a").allowed, true);
    assert.equal(limiter.take("a").allowed, true);
    assert.deepEqual(limiter.take("a"), { allowed: false, retryAfterSeconds: 30 });
    const defaults = new TokenBucketLimiter();
    for (let i = 0; i < 60; i++) assert.equal(defaults.take("a").allowed, true);
    assert.equal(defaults.take("a").allowed, false);
  } finally {
    clock.uninstall();
  }
  assert.throws(() => new TokenBucketLimiter({ ratePerMinute: 0 }), RangeError);
  assert.throws(() => new TokenBucketLimiter({ burst: 0.5 }), RangeError);
  assert.throws(() => new TokenBucketLimiter({ rate: 5 } as never), /unknown option 'rate'/);
});

Deno.test("token bucket evicts idle refilled buckets once over 100, but keeps short ones", () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const limiter = new TokenBucketLimiter({ ratePerMinute: 1, burst: 1 });
    for (let i = 0; i < 101; i++) limiter.take(`k${i}`);
    assert.equal(limiter.size, 101);
    clock.tick(5 * 60_000 + 1);
    limiter.take("fresh");
    assert.equal(limiter.size, 1, "idle buckets refilled long ago are dropped");
    // Slow refill: a bucket idle 6 minutes at 1 per hour is still empty and must survive the sweep.
    const slow = new TokenBucketLimiter({ ratePerMinute: 1 / 60, burst: 1 });
    for (let i = 0; i < 101; i++) slow.take(`k${i}`);
    clock.tick(6 * 60_000);
    slow.take("fresh");
    assert.equal(slow.size, 102);
    assert.equal(slow.take("k0").allowed, false);
  } finally {
    clock.uninstall();
  }
});

Deno.test("token bucket sweeps within a second once past 10 000 buckets, before the minute is up", () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const limiter = new TokenBucketLimiter({ ratePerMinute: 60, burst: 1 });
    for (let i = 0; i < 10_000; i++) limiter.take(`old${i}`);
    clock.tick(4.5 * 60_000);
    limiter.take("x"); // minute sweep: nothing idle long enough yet
    assert.equal(limiter.size, 10_001);
    clock.tick(30_001);
    limiter.take("y"); // 30 s after the last sweep: only the size rule can sweep now
    assert.equal(limiter.size, 2);
  } finally {
    clock.uninstall();
  }
});

Deno.test("rate limit middleware refuses over the limit with a retryable error and a rounded-up wait", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const mw = rateLimitMiddleware({ ratePerMinute: 1, burst: 1 });
    assert.equal(await mw(caller("alice"), ok), "ok");
    const error = await refusal(mw(caller("alice"), ok));
    assert.equal(error.code, "RATE_LIMIT_EXCEEDED");
    assert.equal(error.message, "Rate limit exceeded");
    assert.equal(error.retryable, true);
    assert.equal(error.suggestion, "Wait 60 seconds before retrying");
    assert.deepEqual(error.details, { retry_after_seconds: 60 });
    clock.tick(59_700);
    const almost = await refusal(mw(caller("alice"), ok));
    assert.equal(almost.suggestion, "Wait 1 second before retrying", "never 0 seconds");
    assert.equal(almost.details.retry_after_seconds, 0.3);
  } finally {
    clock.uninstall();
  }
});

Deno.test("rate limit buckets are per tenant and client, with one global bucket for anonymous callers", async () => {
  const mw = rateLimitMiddleware({ ratePerMinute: 1 });
  assert.equal(await mw(caller(), ok), "ok");
  await refusal(mw(caller(), ok));
  assert.equal(await mw(caller("global-ish"), ok), "ok");
  assert.equal(await mw(caller("bob", "acme"), ok), "ok");
  assert.equal(await mw(caller("bob", "other"), ok), "ok", "tenants never share a bucket");
  assert.equal(await mw(caller("bob"), ok), "ok");
  await refusal(mw(caller("bob", "acme"), ok));
  // Colons or pipes inside ids cannot merge two (tenant, client) pairs.
  assert.equal(await mw(caller("b", "a|1:c"), ok), "ok");
  assert.equal(await mw(caller("c|1:b", "a"), ok), "ok");
});

Deno.test("perTool gives each tool its own bucket; keyFunc overrides the key", async () => {
  const perTool = rateLimitMiddleware({ ratePerMinute: 1, perTool: true });
  assert.equal(await perTool(caller("a", undefined, "one"), ok), "ok");
  assert.equal(await perTool(caller("a", undefined, "two"), ok), "ok");
  await refusal(perTool(caller("a", undefined, "one"), ok));
  const shared = rateLimitMiddleware({ ratePerMinute: 1, perTool: false });
  assert.equal(await shared(caller("a", undefined, "one"), ok), "ok");
  await refusal(shared(caller("a", undefined, "two"), ok));
  const keys: string[] = [];
  const custom = rateLimitMiddleware({ ratePerMinute: 1, keyFunc: (ctx) => (keys.push(ctx.name), "same") });
  assert.equal(await custom(caller("a"), ok), "ok");
  await refusal(custom(caller("b"), ok));
  assert.deepEqual(keys, ["echo", "echo"]);
});

Deno.test("a custom limiter is used, and mixing it with rate options or unknown options is refused", async () => {
  const seen: string[] = [];
  const limiter = { take: (key: string) => (seen.push(key), { allowed: false, retryAfterSeconds: 2.2 }) };
  const error = await refusal(rateLimitMiddleware({ limiter })(caller("a", "t"), ok));
  assert.equal(error.suggestion, "Wait 3 seconds before retrying");
  assert.deepEqual(seen, ["8:tenant=t|1:a"]);
  assert.throws(() => rateLimitMiddleware({ limiter, ratePerMinute: 5 }), TypeError);
  assert.throws(() => rateLimitMiddleware({ per_tool: true } as never), /unknown option 'per_tool'/);
});

Deno.test("declared limits are enforced per item and caller, and undeclared items pass", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const mw = declaredRateLimitMiddleware();
    assert.equal(await mw(caller("a", undefined, "free"), ok), "ok");
    assert.equal(await mw(caller("a", undefined, "free"), ok), "ok");
    for (let i = 0; i < 2; i++) assert.equal(await mw(caller("a", undefined, "search", "2/min"), ok), "ok");
    const error = await refusal(mw(caller("a", undefined, "search", "2/min"), ok));
    assert.equal(error.message, "Rate limit exceeded for tool 'search' (declared limit: 2/min)");
    assert.equal(error.details.retry_after_seconds, 30);
    assert.equal(
      await mw(caller("b", undefined, "search", "2/min"), ok),
      "ok",
      "other callers keep their bucket",
    );
    assert.equal(await mw(caller("a", "t", "search", "2/min"), ok), "ok", "tenants are separate");
    assert.equal(
      await mw(resourceCaller("search", "1/hour"), ok),
      "ok",
      "a resource of the same name is separate",
    );
    const resource = await refusal(mw(resourceCaller("search", "1/hour"), ok));
    assert.equal(resource.message, "Rate limit exceeded for resource 'search' (declared limit: 1/hour)");
    clock.tick(30_000);
    assert.equal(await mw(caller("a", undefined, "search", "2/min"), ok), "ok", "refilled N per unit");
  } finally {
    clock.uninstall();
  }
});

Deno.test("unauthenticated callers share one declared bucket", async () => {
  const mw = declaredRateLimitMiddleware();
  assert.equal(await mw(caller(undefined, undefined, "t", "1/s"), ok), "ok");
  await refusal(mw(caller(undefined, undefined, "t", "1/s"), ok));
});

const asking = () => Promise.reject(new InputRequiredSignal({ e1: { method: "elicitation/create" } }));

Deno.test("a call approved over two rounds is charged once: the input_required round is refunded", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const mw = rateLimitMiddleware({ ratePerMinute: 1, burst: 2 });
    for (let call = 0; call < 2; call++) {
      await assert.rejects(mw(caller("alice"), asking), InputRequiredSignal);
      assert.equal(
        await mw(caller("alice"), ok),
        "ok",
        `call ${call + 1}: the retried round carrying answers`,
      );
    }
    const error = await mw(caller("alice"), asking).then(() => undefined, (e: unknown) => e);
    assert.ok(
      error instanceof ToolError && error.code === "RATE_LIMIT_EXCEEDED",
      "a round needs a token to start",
    );
    const declared = declaredRateLimitMiddleware();
    for (let round = 0; round < 3; round++) {
      await assert.rejects(declared(caller("bob", undefined, "gated", "1/min"), asking), InputRequiredSignal);
    }
    assert.equal(await declared(caller("bob", undefined, "gated", "1/min"), ok), "ok");
    await assert.rejects(declared(caller("bob", undefined, "gated", "1/min"), ok), /declared limit: 1\/min/);
  } finally {
    clock.uninstall();
  }
});

Deno.test("refunds never fill a bucket past its burst, and a limiter without refund charges every round", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const limiter = new TokenBucketLimiter({ ratePerMinute: 60, burst: 1 });
    limiter.refund("nobody"); // no bucket yet: nothing to give back
    assert.equal(limiter.size, 0);
    assert.equal(limiter.take("k").allowed, true);
    limiter.refund("k");
    limiter.refund("k");
    assert.equal(limiter.take("k").allowed, true);
    assert.equal(limiter.take("k").allowed, false, "two refunds gave back one token, up to the burst");
    let taken = 0;
    const counting = {
      take: () => (taken++, { allowed: taken <= 2, retryAfterSeconds: taken <= 2 ? 0 : 1 }),
    };
    const mw = rateLimitMiddleware({ limiter: counting });
    await assert.rejects(mw(caller("alice"), asking), InputRequiredSignal);
    assert.equal(await mw(caller("alice"), ok), "ok");
    await assert.rejects(mw(caller("alice"), ok), /Rate limit exceeded/);
  } finally {
    clock.uninstall();
  }
});
