import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { testContext, testTool } from "../_test_context.ts";
import { timeoutMiddleware, withTimeout } from "./timeout.ts";

function fake() {
  return FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
}

function never(): Promise<unknown> {
  return new Promise(() => undefined);
}

Deno.test("timeout middleware fails a slow call after the default 30 seconds with a retryable TIMEOUT", async () => {
  const clock = fake();
  try {
    const { ctx } = testContext({ tool: testTool({ name: "slow" }) });
    const outcome = timeoutMiddleware()(ctx, never).then(() => undefined, (e: unknown) => e);
    await clock.tickAsync(29_999);
    assert.equal(clock.countTimers(), 1);
    await clock.tickAsync(1);
    const error = await outcome;
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "TIMEOUT");
    assert.equal(error.message, "Tool 'slow' timed out after 30s");
    assert.equal(error.retryable, true);
    assert.equal(error.suggestion, "Retry later or continue without this tool");
    assert.equal(clock.countTimers(), 0);
  } finally {
    clock.uninstall();
  }
});

Deno.test("the tool's own timeout wins over defaultTimeout", async () => {
  const clock = fake();
  try {
    const mw = timeoutMiddleware({ defaultTimeout: 100 });
    const { ctx } = testContext({ tool: testTool({ timeout: 0.5 }) });
    const outcome = mw(ctx, never).then(() => undefined, (e: unknown) => e);
    await clock.tickAsync(500);
    assert.match(String(await outcome), /timed out after 0.5s/);
    const { ctx: plain } = testContext();
    const late = mw(plain, never).then(() => undefined, (e: unknown) => e);
    await clock.tickAsync(99_999);
    await clock.tickAsync(1);
    assert.match(String(await late), /timed out after 100s/);
  } finally {
    clock.uninstall();
  }
});

Deno.test("a call that finishes in time returns its result, or its own error, and clears the timer", async () => {
  const clock = fake();
  try {
    const { ctx } = testContext();
    const mw = timeoutMiddleware({ defaultTimeout: 5 });
    assert.equal(await mw(ctx, () => Promise.resolve("done")), "done");
    assert.equal(clock.countTimers(), 0);
    await assert.rejects(mw(ctx, () => Promise.reject(new Error("boom"))), /boom/);
    assert.equal(clock.countTimers(), 0);
    await assert.rejects(
      mw(ctx, () => {
        throw new Error("sync");
      }),
      /sync/,
    );
    assert.equal(clock.countTimers(), 0);
  } finally {
    clock.uninstall();
  }
});

Deno.test("withTimeout bounds any work and names resources and prompts by kind", async () => {
  const clock = fake();
  try {
    const { ctx } = testContext({ tool: testTool({ name: "t" }) });
    assert.equal(await withTimeout(() => Promise.resolve(7), { seconds: 1, ctx }), 7);
    const outcome = withTimeout(never, { seconds: 2, ctx }).then(() => undefined, (e: unknown) => e);
    await clock.tickAsync(2_000);
    assert.match(String(await outcome), /Tool 't' timed out after 2s/);
    Object.defineProperty(ctx, "requestType", { value: "prompt" });
    const prompt = withTimeout(never, { seconds: 1, ctx }).then(() => undefined, (e: unknown) => e);
    await clock.tickAsync(1_000);
    assert.match(String(await prompt), /Prompt 't' timed out after 1s/);
    // Bounds past setTimeout's range mean "no bound" rather than firing at once.
    assert.equal(await withTimeout(() => Promise.resolve("x"), { seconds: 30 * 86_400, ctx }), "x");
    assert.equal(clock.countTimers(), 0);
  } finally {
    clock.uninstall();
  }
});

Deno.test("bad timeout options are refused", async () => {
  assert.throws(() => timeoutMiddleware({ defaultTimeout: 0 }), RangeError);
  assert.throws(() => timeoutMiddleware({ defaultTimeout: Infinity }), RangeError);
  assert.throws(() => timeoutMiddleware({ default_timeout: 5 } as never), /unknown option 'default_timeout'/);
  const { ctx } = testContext();
  await assert.rejects(withTimeout(() => Promise.resolve(1), { seconds: -1, ctx }), RangeError);
});

Deno.test("concurrent calls share one timer, each times out at its own bound, and none is left after", async () => {
  const clock = fake();
  try {
    const mw = timeoutMiddleware({ defaultTimeout: 10 });
    const settle = (p: Promise<unknown>) => p.then(() => "ok", (e: unknown) => String(e));
    const long = settle(mw(testContext().ctx, never));
    const short = settle(mw(testContext({ tool: testTool({ name: "quick", timeout: 2 }) }).ctx, never));
    const done = Promise.withResolvers<string>();
    const fast = settle(mw(testContext().ctx, () => done.promise));
    assert.equal(clock.countTimers(), 1);
    await clock.tickAsync(1_000);
    done.resolve("x");
    assert.equal(await fast, "ok");
    await clock.tickAsync(999);
    assert.equal(clock.countTimers(), 1);
    await clock.tickAsync(1);
    assert.match(await short, /Tool 'quick' timed out after 2s/);
    assert.equal(clock.countTimers(), 1);
    await clock.tickAsync(7_999);
    await clock.tickAsync(1);
    assert.match(await long, /timed out after 10s/);
    assert.equal(clock.countTimers(), 0);
  } finally {
    clock.uninstall();
  }
});

Deno.test("a round that ends input_required passes through the timeout untouched and leaves no timer", async () => {
  const clock = fake();
  try {
    const { ctx } = testContext({ tool: testTool({ name: "gated" }) });
    const signal = new InputRequiredSignal({ e1: { method: "elicitation/create" } });
    const asked = Promise.withResolvers<never>();
    const outcome = timeoutMiddleware({ defaultTimeout: 5 })(ctx, () => asked.promise)
      .then(() => undefined, (e: unknown) => e);
    await clock.tickAsync(1_000);
    assert.equal(clock.countTimers(), 1);
    asked.reject(signal);
    assert.equal(await outcome, signal);
    assert.equal(clock.countTimers(), 0, "the bound is released as on success");
    await clock.tickAsync(10_000);
    assert.equal(ctx.signal.aborted, false, "the context is never aborted by a released bound");
  } finally {
    clock.uninstall();
  }
});
