import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { DEAD_SESSION } from "./_test_context.ts";
import { InputRequiredSignal } from "./input_required.ts";
import type { CallInfo } from "./pipeline.ts";
import * as requests from "./requests.ts";
import { createToolServer } from "./tool_server.ts";
import type { CallSession, Middleware } from "./types.ts";

/** A 2026-07-28 session whose every question is still unanswered. */
const WAITING: CallSession = {
  ...DEAD_SESSION,
  era: "modern",
  supports: () => true,
  elicit: () => Promise.reject(new InputRequiredSignal({ e1: { method: "elicitation/create" } })),
};

function info(): CallInfo {
  return { meta: {}, session: WAITING, signal: new AbortController().signal };
}

function askingServer() {
  const sink = memorySink();
  const seen: unknown[] = [];
  const watch: Middleware = async (_ctx, next) => {
    try {
      return await next();
    } catch (error) {
      seen.push(error);
      throw error;
    }
  };
  const ask = async (ctx: { session: CallSession }) => {
    const answer = await ctx.session.elicit({
      message: "Sure?",
      requestedSchema: { type: "object", properties: {} },
    });
    return answer.action;
  };
  const server = createToolServer({ logger: new Logger("t", { sink, level: "debug" }) })
    .use(watch)
    .tool("deploy", { timeout: 5, guards: [{ check: () => true }] }, (_args, ctx) => ask(ctx))
    .prompt("brief", {}, (_args, ctx) => ask(ctx))
    .resource("memo://today", {}, (ctx) => ask(ctx));
  return { server, seen, records: sink.records };
}

Deno.test("the input-required signal passes through middleware, guards and timeout to the caller", async () => {
  const { server, seen, records } = askingServer();
  const calls = [
    requests.callTool(server, "deploy", {}, info()),
    requests.getPrompt(server, "brief", {}, info()),
    requests.readResource(server, "memo://today", info()),
  ];
  for (const call of calls) await assert.rejects(call, InputRequiredSignal);
  assert.equal(seen.length, 3);
  assert.ok(seen.every((error) => error instanceof InputRequiredSignal), "middleware saw the signal itself");
  assert.deepEqual(records.filter((r) => r.level === "error"), [], "no failure was logged");
});

Deno.test("a tool that answers after its input still answers a normal result", async () => {
  const server = createToolServer({ settings: {} }).tool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.session.elicit({
      message: "?",
      requestedSchema: { type: "object", properties: {} },
    });
    return answer.action;
  });
  const answered: CallSession = { ...WAITING, elicit: () => Promise.resolve({ action: "accept" }) };
  const result = await requests.callTool(server, "ask", {}, { ...info(), session: answered });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.content, [{ type: "text", text: "accept" }]);
});
