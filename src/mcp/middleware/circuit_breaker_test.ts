import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { middlewareRole } from "../chain.ts";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import type { RequestContext } from "../request_context.ts";
import { testContext, testTool } from "../_test_context.ts";
import { circuitBreaker } from "./circuit_breaker.ts";
import type { CircuitBreaker } from "./circuit_breaker.ts";

type Clock = ReturnType<typeof FakeTimers.install>;

async function withClock(body: (clock: Clock) => Promise<void>): Promise<void> {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    await body(clock);
  } finally {
    clock.uninstall();
  }
}

function call(name = "search"): RequestContext {
  return testContext({ tool: testTool({ name }) }).ctx;
}

const upstreamDown = () => Promise.reject(new Error("connection refused"));
const badInput = () => Promise.reject(new ToolError("NOT_FOUND", "No order 42"));
const denied = () => Promise.reject(new ToolError("ACCESS_DENIED", "no", { retryable: true }));
const ok = () => Promise.resolve("ok");

async function fail(breaker: CircuitBreaker, times: number, next = upstreamDown, name = "search") {
  for (let i = 0; i < times; i++) await assert.rejects(breaker(call(name), next));
}

async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(
    error instanceof ToolError && error.code === "CIRCUIT_OPEN",
    `expected CIRCUIT_OPEN, got ${error}`,
  );
  return error;
}

Deno.test("closed: a circuit opens after five consecutive upstream failures and refuses at once", async () => {
  await withClock(async () => {
    const breaker = circuitBreaker();
    await fail(breaker, 4);
    assert.equal(breaker.getState("search"), "closed");
    await fail(breaker, 1);
    assert.equal(breaker.getState("search"), "open");
    let ran = false;
    const error = await refusal(breaker(call(), () => (ran = true, ok())));
    assert.equal(ran, false);
    assert.equal(error.message, "Circuit open for tool 'search'. Retry after 60.0s.");
    assert.equal(error.retryable, true);
    assert.equal(error.suggestion, "Wait about 60 seconds or continue without this tool");
    assert.deepEqual(error.details, { tool: "search", retry_after_seconds: 60 });
    assert.equal(breaker.getState("other"), "closed", "circuits are per tool");
  });
});

Deno.test("closed: success resets the streak and non-counting errors leave it unchanged", async () => {
  await withClock(async () => {
    const breaker = circuitBreaker({ failureThreshold: 3 });
    await fail(breaker, 2);
    assert.equal(await breaker(call(), ok), "ok");
    await fail(breaker, 2);
    assert.equal(breaker.getState("search"), "closed", "the success reset the streak");
    await fail(breaker, 3, badInput);
    await fail(breaker, 3, denied);
    assert.equal(breaker.getState("search"), "closed", "non-retryable and caller-side errors do not count");
    await fail(breaker, 1);
    assert.equal(breaker.getState("search"), "open", "the streak of two survived the non-counting errors");
  });
});

Deno.test("open: refusals count down from the last failure until half-open", async () => {
  await withClock(async (clock) => {
    const breaker = circuitBreaker({ failureThreshold: 1, recoveryTimeout: 10 });
    await fail(breaker, 1);
    clock.tick(7_250);
    const error = await refusal(breaker(call(), ok));
    assert.equal(error.message, "Circuit open for tool 'search'. Retry after 2.8s.");
    assert.equal(error.suggestion, "Wait about 3 seconds or continue without this tool");
    assert.equal(error.details.retry_after_seconds, 2.8);
    clock.tick(2_749);
    assert.equal(breaker.getState("search"), "open");
    const last = await refusal(breaker(call(), ok));
    assert.equal(last.message, "Circuit open for tool 'search'. Retry after 0.1s.");
    assert.equal(last.suggestion, "Wait about 1 second or continue without this tool");
    clock.tick(1);
    assert.equal(breaker.getState("search"), "half_open");
  });
});

Deno.test("half-open: a successful probe closes the circuit with a fresh streak", async () => {
  await withClock(async (clock) => {
    const breaker = circuitBreaker({ failureThreshold: 2, recoveryTimeout: 5 });
    await fail(breaker, 2);
    clock.tick(5_000);
    assert.equal(await breaker(call(), ok), "ok");
    assert.equal(breaker.getState("search"), "closed");
    await fail(breaker, 1);
    assert.equal(breaker.getState("search"), "closed");
  });
});

Deno.test("half-open: a failing probe reopens the circuit for another recovery period", async () => {
  await withClock(async (clock) => {
    const breaker = circuitBreaker({ failureThreshold: 2, recoveryTimeout: 5 });
    await fail(breaker, 2);
    clock.tick(6_000);
    await fail(breaker, 1);
    assert.equal(breaker.getState("search"), "open");
    clock.tick(4_999);
    await refusal(breaker(call(), ok));
    clock.tick(1);
    assert.equal(breaker.getState("search"), "half_open");
  });
});

Deno.test("half-open: a probe ending with a non-counting error leaves it half-open for the next probe", async () => {
  await withClock(async (clock) => {
    const breaker = circuitBreaker({ failureThreshold: 1, recoveryTimeout: 5 });
    await fail(breaker, 1);
    clock.tick(5_000);
    await assert.rejects(breaker(call(), badInput), /No order 42/);
    assert.equal(breaker.getState("search"), "half_open");
    assert.equal(await breaker(call(), ok), "ok");
    assert.equal(breaker.getState("search"), "closed");
  });
});

Deno.test("half-open: calls during the probe are refused with a wait of at most one second", async () => {
  await withClock(async (clock) => {
    for (const [recoveryTimeout, wait] of [[30, 1], [0.5, 0.5]]) {
      const breaker = circuitBreaker({ failureThreshold: 1, recoveryTimeout });
      await fail(breaker, 1);
      clock.tick(recoveryTimeout * 1000);
      const probe = Promise.withResolvers<string>();
      const probing = breaker(call(), () => probe.promise);
      const error = await refusal(breaker(call(), ok));
      assert.equal(error.details.retry_after_seconds, wait);
      probe.resolve("healthy");
      assert.equal(await probing, "healthy");
      assert.equal(breaker.getState("search"), "closed");
    }
  });
});

Deno.test("results of calls admitted before the circuit opened do not change it", async () => {
  await withClock(async (clock) => {
    const breaker = circuitBreaker({ failureThreshold: 1, recoveryTimeout: 5 });
    const slow = Promise.withResolvers<string>();
    const stale = breaker(call(), () => slow.promise);
    await fail(breaker, 1);
    slow.resolve("late success");
    assert.equal(await stale, "late success");
    assert.equal(
      breaker.getState("search"),
      "open",
      "a late success from before the opening does not close it",
    );
    clock.tick(5_000);
    assert.equal(breaker.getState("search"), "half_open");
  });
});

Deno.test("a call cancelled by the client is no verdict", async () => {
  await withClock(async () => {
    const breaker = circuitBreaker({ failureThreshold: 1 });
    const abort = new AbortController();
    const { ctx } = testContext({ tool: testTool({ name: "search" }), signal: abort.signal });
    abort.abort();
    await assert.rejects(breaker(ctx, () => Promise.reject(abort.signal.reason)));
    assert.equal(breaker.getState("search"), "closed");
  });
});

Deno.test("excluded tools are never broken; isFailure decides what counts", async () => {
  await withClock(async () => {
    const breaker = circuitBreaker({ failureThreshold: 1, excludedTools: ["health"] });
    await fail(breaker, 3, upstreamDown, "health");
    assert.equal(await breaker(call("health"), ok), "ok");
    assert.equal(breaker.getState("health"), "closed");
    const strict = circuitBreaker({ failureThreshold: 1, isFailure: (e) => e instanceof ToolError });
    await fail(strict, 2, upstreamDown);
    assert.equal(strict.getState("search"), "closed");
    await fail(strict, 1, badInput);
    assert.equal(strict.getState("search"), "open");
  });
});

Deno.test("reset closes one circuit or all of them", async () => {
  await withClock(async () => {
    const breaker = circuitBreaker({ failureThreshold: 1 });
    await fail(breaker, 1, upstreamDown, "a");
    await fail(breaker, 1, upstreamDown, "b");
    breaker.reset("a");
    assert.deepEqual([breaker.getState("a"), breaker.getState("b")], ["closed", "open"]);
    breaker.reset();
    assert.equal(breaker.getState("b"), "closed");
    assert.equal(await breaker(call("b"), ok), "ok");
  });
});

Deno.test("bad circuit breaker options are refused", () => {
  assert.throws(() => circuitBreaker({ failureThreshold: 0 }), RangeError);
  assert.throws(() => circuitBreaker({ failureThreshold: 2.5 }), RangeError);
  assert.throws(() => circuitBreaker({ recoveryTimeout: 0 }), RangeError);
  assert.throws(() => circuitBreaker({ isFailure: "yes" as never }), TypeError);
  assert.throws(() => circuitBreaker({ threshold: 3 } as never), /unknown option 'threshold'/);
});

Deno.test("the breaker is marked for the server's wiring and keys resources apart from tools", async () => {
  await withClock(async () => {
    const breaker = circuitBreaker({ failureThreshold: 1 });
    assert.equal(middlewareRole(breaker), "circuit_breaker");
    const { ctx } = testContext({ tool: testTool({ name: "search" }) });
    Object.defineProperty(ctx, "requestType", { value: "resource" });
    await assert.rejects(breaker(ctx, upstreamDown));
    const error = await refusal(breaker(ctx, ok));
    assert.equal(error.message, "Circuit open for resource 'search'. Retry after 60.0s.");
    assert.deepEqual([breaker.getState("resource:search"), breaker.getState("search")], ["open", "closed"]);
  });
});

const asking = () => Promise.reject(new InputRequiredSignal({ e1: { method: "elicitation/create" } }));

Deno.test("a round that ends input_required neither counts as a failure nor breaks the streak", async () => {
  await withClock(async () => {
    const everything = circuitBreaker({ failureThreshold: 2, isFailure: () => true });
    for (let i = 0; i < 5; i++) await assert.rejects(everything(call(), asking), InputRequiredSignal);
    assert.equal(everything.getState("search"), "closed");
    const breaker = circuitBreaker({ failureThreshold: 2 });
    await fail(breaker, 1);
    await assert.rejects(breaker(call(), asking), InputRequiredSignal);
    assert.equal(breaker.getState("search"), "closed");
    await fail(breaker, 1);
    assert.equal(breaker.getState("search"), "open", "the streak went on across the input_required round");
  });
});

Deno.test("a half-open probe that ends input_required leaves the circuit half-open for the next probe", async () => {
  await withClock(async (clock) => {
    const breaker = circuitBreaker({ failureThreshold: 1, recoveryTimeout: 10 });
    await fail(breaker, 1);
    clock.tick(10_000);
    assert.equal(breaker.getState("search"), "half_open");
    const signal = await breaker(call(), asking).then(() => undefined, (e: unknown) => e);
    assert.ok(signal instanceof InputRequiredSignal, "the signal passes through untouched");
    assert.equal(breaker.getState("search"), "half_open");
    assert.equal(await breaker(call(), ok), "ok", "the probe slot was released");
    assert.equal(breaker.getState("search"), "closed");
  });
});
