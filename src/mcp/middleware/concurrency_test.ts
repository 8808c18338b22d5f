import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { testContext, testTool } from "../_test_context.ts";
import { concurrencyLimiter, perToolConcurrencyLimiter } from "./concurrency.ts";

function gate() {
  const { promise, resolve } = Promise.withResolvers<string>();
  return { wait: () => promise, open: () => resolve("done") };
}

async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ToolError, "expected a ToolError");
  return error;
}

Deno.test("concurrency limiter refuses at once when full and frees the slot when a call ends", async () => {
  const limiter = concurrencyLimiter({ maxConcurrent: 2 });
  const { ctx } = testContext();
  const g = gate();
  const first = limiter(ctx, g.wait);
  await assert.rejects(limiter(ctx, () => Promise.reject(new Error("fails"))), /fails/);
  const third = limiter(ctx, g.wait);
  const error = await refusal(limiter(ctx, g.wait));
  assert.equal(error.code, "CONCURRENCY_LIMIT_EXCEEDED");
  assert.equal(error.message, "Server at capacity (2 concurrent requests)");
  assert.equal(error.retryable, true);
  assert.deepEqual(limiter.stats(), { active: 2, total: 3, peak: 2 });
  g.open();
  assert.deepEqual(await Promise.all([first, third]), ["done", "done"]);
  assert.deepEqual(limiter.stats(), { active: 0, total: 3, peak: 2 });
});

Deno.test("concurrency limiter defaults to 100 and 0 only tracks", async () => {
  const { ctx } = testContext();
  const g = gate();
  const defaults = concurrencyLimiter();
  const held = Array.from({ length: 100 }, () => defaults(ctx, g.wait));
  await refusal(defaults(ctx, g.wait));
  const tracking = concurrencyLimiter({ maxConcurrent: 0 });
  const many = Array.from({ length: 250 }, () => tracking(ctx, g.wait));
  assert.deepEqual(tracking.stats(), { active: 250, total: 250, peak: 250 });
  g.open();
  await Promise.all([...held, ...many]);
  assert.equal(tracking.stats().active, 0);
});

Deno.test("concurrency limiter refuses bad options", () => {
  assert.throws(() => concurrencyLimiter({ maxConcurrent: -1 }), RangeError);
  assert.throws(() => concurrencyLimiter({ maxConcurrent: 1.5 }), RangeError);
  assert.throws(() => concurrencyLimiter({ max: 1 } as never), /unknown option 'max'/);
});

Deno.test("per-tool limiter caps each tool at its maxConcurrent and passes others through", async () => {
  const mw = perToolConcurrencyLimiter();
  const one = testContext({ tool: testTool({ name: "one", maxConcurrent: 1 }) }).ctx;
  const two = testContext({ tool: testTool({ name: "two", maxConcurrent: 1 }) }).ctx;
  const free = testContext({ tool: testTool({ name: "free" }) }).ctx;
  const g = gate();
  const running = mw(one, g.wait);
  const error = await refusal(mw(one, g.wait));
  assert.equal(error.code, "CONCURRENCY_LIMIT_EXCEEDED");
  assert.equal(error.message, "Tool 'one' at capacity (1 concurrent calls)");
  assert.equal(error.retryable, true);
  const other = mw(two, g.wait);
  const unlimited = Array.from({ length: 5 }, () => mw(free, g.wait));
  g.open();
  await Promise.all([running, other, ...unlimited]);
  assert.equal(await mw(one, () => Promise.resolve("again")), "again", "the slot is free after the call");
  await assert.rejects(mw(one, () => Promise.reject(new Error("x"))), /x/);
  assert.equal(
    await mw(one, () => Promise.resolve("still free")),
    "still free",
    "failures free the slot too",
  );
});

Deno.test("a round that ends input_required frees its slot, server-wide and per tool", async () => {
  const signal = new InputRequiredSignal({ e1: { method: "elicitation/create" } });
  const asking = () => Promise.reject(signal);
  const limiter = concurrencyLimiter({ maxConcurrent: 1 });
  const perTool = perToolConcurrencyLimiter();
  const { ctx } = testContext({ tool: testTool({ name: "gated", maxConcurrent: 1 }) });
  for (let round = 0; round < 3; round++) {
    await assert.rejects(limiter(ctx, () => perTool(ctx, asking)), (e) => e === signal);
  }
  assert.deepEqual(limiter.stats(), { active: 0, total: 3, peak: 1 });
  assert.equal(await limiter(ctx, () => perTool(ctx, () => Promise.resolve("ran"))), "ran");
});
