import assert from "node:assert/strict";
import { serveOnLoopback } from "../transports/_test_serve.ts";
import { toFetchHandler } from "../transports/to_fetch_handler.ts";
import { createToolServer } from "../tool_server.ts";
import { startTask } from "./start_task.ts";
import { TASKS_EXTENSION } from "./task_requests.ts";
import { modern, onTheWire } from "./_test_modern.ts";

Deno.test("over HTTP a 2026-07-28 client discovers the extension, runs a task, answers its input and reads the result", async () => {
  const server = createToolServer({ name: "tasks-http" });
  server.tool("ask_then_work", { task: "required" }, async (_args, ctx) => {
    const first = await ctx.session.elicit({
      message: "name?",
      requestedSchema: { type: "object", properties: {} },
    }, {
      key: "who",
    });
    await startTask(ctx);
    const second = await ctx.session.elicit({
      message: "sure?",
      requestedSchema: { type: "object", properties: {} },
    });
    return `${first.action}/${second.action}`;
  });
  await using served = await serveOnLoopback(toFetchHandler(server));
  const url = `${served.base}/mcp`;

  const discovered = await modern(url, "server/discover");
  assert.deepEqual((discovered.result?.capabilities as Record<string, unknown>).extensions, {
    [TASKS_EXTENSION]: {},
  });
  const listed = await modern(url, "tools/list");
  assert.equal((listed.result?.tools as { name: string }[])[0].name, "ask_then_work");

  const round1 = await modern(url, "tools/call", { name: "ask_then_work", arguments: {} });
  assert.equal(round1.result?.resultType, "input_required");
  assert.ok(!("taskId" in round1.result!));
  const created = await modern(url, "tools/call", {
    name: "ask_then_work",
    arguments: {},
    inputResponses: { who: { action: "accept", content: {} } },
    requestState: round1.result?.requestState,
  });
  onTheWire("create", created.result);
  assert.throws(() => onTheWire("create", { ...created.result, ttlMs: 1.5 }), /not a create result/);
  assert.ok(!("requestState" in created.result!));
  const taskId = created.result?.taskId as string;

  let task = await modern(url, "tasks/get", { taskId });
  for (let i = 0; i < 50 && task.result?.status !== "input_required"; i++) {
    task = await modern(url, "tasks/get", { taskId });
  }
  assert.deepEqual(Object.keys(onTheWire("get", task.result)?.inputRequests as object), ["e1"]);
  const ack = await modern(url, "tasks/update", { taskId, inputResponses: { e1: { action: "decline" } } });
  onTheWire("ack", ack.result);
  for (let i = 0; i < 50 && task.result?.status !== "completed"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    task = await modern(url, "tasks/get", { taskId });
  }
  assert.deepEqual((onTheWire("get", task.result)?.result as { content: unknown }).content, [{
    type: "text",
    text: "accept/decline",
  }]);

  assert.equal((await modern(url, "tasks/result", { taskId })).error?.code, -32601);
  assert.equal((await modern(url, "tasks/list")).error?.code, -32601);
  assert.equal((await modern(url, "tasks/get", { taskId: "unknown" })).error?.code, -32602);
});
