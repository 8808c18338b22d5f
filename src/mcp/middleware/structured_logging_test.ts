import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { RequestContext } from "../request_context.ts";
import { DEAD_SESSION, testContext, testTool } from "../_test_context.ts";
import { Logger, memorySink } from "../../log.ts";
import { structuredLogging } from "./structured_logging.ts";

Deno.test("a successful call logs start and end records with duration rounded to 2 decimals", async () => {
  const clock = FakeTimers.install({ toFake: ["performance", "Date"] });
  try {
    const { ctx, logs } = testContext({ tool: testTool({ name: "search" }), args: { q: "secret" } });
    const result = await structuredLogging()(ctx, async () => {
      clock.tick(12.3456);
      ctx.clientId = "alice"; // set by auth middleware further in
      return await Promise.resolve("ok");
    });
    assert.equal(result, "ok");
    assert.deepEqual(logs.map((r) => [r.level, r.message, r.fields]), [
      ["info", "tool_call_start", { tool: "search", request_id: "req-1" }],
      ["info", "tool_call_end", {
        tool: "search",
        request_id: "req-1",
        client_id: "alice",
        duration_ms: 12.35,
        status: "ok",
      }],
    ]);
  } finally {
    clock.uninstall();
  }
});

Deno.test("a failing call logs the error code or name and rethrows the same error", async () => {
  const mw = structuredLogging();
  const { ctx, logs } = testContext();
  ctx.clientId = "bob";
  const denied = new ToolError("ACCESS_DENIED", "Requires role admin");
  await assert.rejects(mw(ctx, () => Promise.reject(denied)), (e) => e === denied);
  const crash = new TypeError("x is undefined");
  await assert.rejects(mw(ctx, () => Promise.reject(crash)), (e) => e === crash);
  const waiting = new InputRequiredSignal({ e1: { method: "elicitation/create" } });
  await assert.rejects(mw(ctx, () => Promise.reject(waiting)), (e) => e === waiting);
  const ends = logs.filter((r) => r.message === "tool_call_end").map((r) => r.fields);
  assert.equal(logs[0].fields.client_id, "bob");
  assert.deepEqual(ends.map((f) => [f.status, f.error]), [
    ["error", "ACCESS_DENIED: Requires role admin"],
    ["error", "TypeError: x is undefined"],
    ["input_required", undefined],
  ]);
});

Deno.test("includeArgs adds the arguments to the start record; level sets the record level", async () => {
  const { ctx, logs } = testContext({ args: { q: "x" } });
  await structuredLogging({ level: "debug", includeArgs: true })(ctx, () => Promise.resolve(1));
  assert.deepEqual(logs[0].fields.args, { q: "x" });
  assert.deepEqual(logs.map((r) => r.level), ["debug", "debug"]);
  const quiet = memorySink();
  const warningOnly = new RequestContext({
    serverName: "s",
    definition: testTool(),
    requestType: "tool",
    requestId: "r",
    meta: {},
    arguments: {},
    session: DEAD_SESSION,
    signal: new AbortController().signal,
    logger: new Logger("t", { level: "warning", sink: quiet }),
  });
  await structuredLogging({ level: "info", includeArgs: false })(warningOnly, () => Promise.resolve(1));
  assert.equal(quiet.records.length, 0, "records under the logger's level are not written");
  await structuredLogging({ level: "error" })(warningOnly, () => Promise.resolve(1));
  assert.equal(quiet.records.length, 2);
  assert.equal(quiet.records[0].fields.args, undefined);
});

Deno.test("resource reads are logged with their request type; bad options are refused", async () => {
  const { ctx, logs } = testContext();
  Object.defineProperty(ctx, "requestType", { value: "resource" });
  await structuredLogging()(ctx, () => Promise.resolve(1));
  assert.equal(logs[0].fields.request_type, "resource");
  assert.throws(() => structuredLogging({ level: "verbose" as never }), /level must be one of/);
  assert.throws(() => structuredLogging({ log_level: "info" } as never), /unknown option 'log_level'/);
});

Deno.test("a round that ends input_required is logged as such, with the pending keys, not as an error", async () => {
  const { ctx, logs } = testContext();
  const signal = new InputRequiredSignal({
    e1: { method: "elicitation/create", params: { message: "Approve the transfer?" } },
  });
  await assert.rejects(structuredLogging()(ctx, () => Promise.reject(signal)), (e) => e === signal);
  const end = logs.find((r) => r.message === "tool_call_end");
  assert.equal(end?.level, "info");
  assert.equal(end?.fields.status, "input_required");
  assert.deepEqual(end?.fields.pending, { e1: "elicitation/create" });
  assert.equal(end?.fields.error, undefined);
  assert.doesNotMatch(JSON.stringify(logs), /Approve the transfer/, "the question itself is not logged");
});
