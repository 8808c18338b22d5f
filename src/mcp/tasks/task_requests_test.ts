import assert from "node:assert/strict";
import { z } from "zod";
import { DEAD_SESSION } from "../_test_context.ts";
import { ApiKeyAuth } from "../auth/api_key_auth.ts";
import { authMiddleware } from "../auth/auth_middleware.ts";
import { ToolError } from "../errors.ts";
import { createToolServer, type ToolServer } from "../tool_server.ts";
import type { CallSession } from "../types.ts";
import { startTask } from "./start_task.ts";
import { callToolWithTask, type CreateTaskAnswer } from "./call_tool_with_task.ts";
import {
  cancelTask,
  getTask,
  type TaskRequestInfo,
  TASKS_EXTENSION,
  updateTask,
  watchTasks,
} from "./task_requests.ts";

const WITH_TASKS = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} };
const MODERN: CallSession = { ...DEAD_SESSION, era: "modern", supports: (m) => m === "elicitation/create" };

function info(
  meta: Record<string, string> = {},
  capabilities: Record<string, unknown> = WITH_TASKS,
): TaskRequestInfo {
  return { meta, session: MODERN, signal: new AbortController().signal, capabilities };
}

function jobs(): { server: ToolServer; gate: PromiseWithResolvers<void>; seen: string[] } {
  const server = createToolServer({ name: "jobs", cancelGracePeriod: 0.05 });
  const gate = Promise.withResolvers<void>();
  const seen: string[] = [];
  server.tool("sync", {}, () => "plain");
  server.tool("job", { task: "optional", input: z.object({ n: z.number() }) }, async ({ n }, ctx) => {
    const inTask = await startTask(ctx);
    seen.push(`in task: ${inTask}`);
    await ctx.session.progress(1, 2, "half way");
    await gate.promise;
    if (n < 0) throw new ToolError("TOOL_ERROR", "negative");
    if (n === 0) throw new Error("crash");
    return `n=${n}`;
  });
  server.tool("must", { task: "required" }, async (_args, ctx) => {
    await startTask(ctx);
    const answer = await ctx.session.elicit({
      message: "ok?",
      requestedSchema: { type: "object", properties: {} },
    });
    return answer.action;
  });
  server.tool("forever", { task: "optional" }, async (_args, ctx) => {
    await startTask(ctx);
    await new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
  });
  return { server, gate, seen };
}

async function settled(server: ToolServer, taskId: string, request = info()) {
  for (let i = 0; i < 100; i++) {
    const task = await getTask(server, taskId, request);
    if (["completed", "failed", "cancelled"].includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the task did not end");
}

Deno.test("a task tool answers with the task at once, reports progress, and inlines its result when done", async () => {
  const { server, gate, seen } = jobs();
  const created = await callToolWithTask(server, "job", { n: 3 }, info()) as CreateTaskAnswer;
  assert.equal(created.resultType, "task");
  assert.equal(created.status, "working");
  assert.ok(!("requestState" in created) && !("result" in created) && !("task" in created));
  const working = await getTask(server, created.taskId, info());
  assert.equal(working.resultType, "complete");
  assert.equal(working.statusMessage, "half way");
  gate.resolve();
  const done = await settled(server, created.taskId);
  assert.equal(done.status, "completed");
  assert.deepEqual(done.result, { content: [{ type: "text", text: "n=3" }], resultType: "complete" });
  assert.deepEqual(seen, ["in task: true"]);
});

Deno.test("a tool error completes the task with isError; a crash fails it with a JSON-RPC error", async () => {
  const { server, gate } = jobs();
  const toolError = await callToolWithTask(server, "job", { n: -1 }, info()) as CreateTaskAnswer;
  const crash = await callToolWithTask(server, "job", { n: 0 }, info()) as CreateTaskAnswer;
  gate.resolve();
  const completed = await settled(server, toolError.taskId);
  assert.equal(completed.status, "completed");
  assert.equal(completed.result?.isError, true);
  const failed = await settled(server, crash.taskId);
  assert.equal(failed.status, "failed");
  assert.equal(failed.error?.code, -32603);
  assert.ok(!("result" in failed));
});

Deno.test("without the extension a task tool runs in its request, a required one is refused with -32021", async () => {
  const { server, gate, seen } = jobs();
  gate.resolve();
  const plain = await callToolWithTask(server, "job", { n: 2 }, info({}, {}));
  assert.deepEqual(plain, { content: [{ type: "text", text: "n=2" }] });
  assert.deepEqual(seen, ["in task: false"]);
  await assert.rejects(
    callToolWithTask(server, "must", {}, info({}, {})),
    (error: Error & { code?: number; data?: unknown }) => {
      assert.equal(error.code, -32021);
      assert.deepEqual(error.data, { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
      return true;
    },
  );
  assert.deepEqual(await callToolWithTask(server, "sync", {}, info()), {
    content: [{ type: "text", text: "plain" }],
  });
  for (const call of [getTask(server, "x", info({}, {})), cancelTask(server, "x", info({}, {}))]) {
    await assert.rejects(call, { code: -32021 });
  }
  await assert.rejects(getTask(server, "no-such-task", info()), { code: -32602 });
});

Deno.test("a task waiting for input resumes on tasks/update; malformed answers are refused with -32602", async () => {
  const { server } = jobs();
  const created = await callToolWithTask(server, "must", {}, info()) as CreateTaskAnswer;
  const waiting = await getTask(server, created.taskId, info());
  assert.equal(waiting.status, "input_required");
  assert.deepEqual(Object.keys(waiting.inputRequests ?? {}), ["e1"]);
  await assert.rejects(
    updateTask(server, { taskId: created.taskId, inputResponses: { e1: { action: "nope" } } }, info()),
    { code: -32602 },
  );
  await assert.rejects(updateTask(server, { taskId: created.taskId, inputResponses: [] }, info()), {
    code: -32602,
  });
  const ack = await updateTask(server, {
    taskId: created.taskId,
    inputResponses: { e1: { action: "accept" } },
  }, info());
  assert.deepEqual(ack, { resultType: "complete" });
  const done = await settled(server, created.taskId);
  assert.deepEqual(done.result?.content, [{ type: "text", text: "accept" }]);
});

Deno.test("tasks/cancel aborts the call's signal and settles to cancelled; cancelling again acks the same", async () => {
  const { server } = jobs();
  const created = await callToolWithTask(server, "forever", {}, info()) as CreateTaskAnswer;
  assert.deepEqual(await cancelTask(server, created.taskId, info()), { resultType: "complete" });
  assert.equal((await settled(server, created.taskId)).status, "cancelled");
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.equal((await getTask(server, created.taskId, info())).status, "cancelled", "stays cancelled");
  assert.deepEqual(await cancelTask(server, created.taskId, info()), { resultType: "complete" });
});

Deno.test("a task is visible only to the caller that created it", async () => {
  const server = createToolServer({ name: "private" });
  server.use(authMiddleware(new ApiKeyAuth({ keys: { "key-a": "alice", "key-b": "bob" } })));
  server.tool("job", { task: "optional" }, async (_args, ctx) => {
    await startTask(ctx);
    return ctx.clientId;
  });
  const alice = info({ "x-api-key": "key-a" });
  const created = await callToolWithTask(server, "job", {}, alice) as CreateTaskAnswer;
  assert.equal((await settled(server, created.taskId, alice)).status, "completed");
  for (const other of [info({ "x-api-key": "key-b" }), info()]) {
    await assert.rejects(getTask(server, created.taskId, other), { code: -32602 });
    await assert.rejects(cancelTask(server, created.taskId, other), { code: -32602 });
  }
});

Deno.test("the server's tasks option sets ttlMs and pollIntervalMs; watchTasks sees each change with its owner", async () => {
  const server = createToolServer({ name: "tuned", tasks: { ttlMs: 5000, pollIntervalMs: 250 } });
  server.tool("job", { task: "optional" }, async (_args, ctx) => {
    await startTask(ctx);
    await ctx.session.progress(1, undefined, "step one");
    return "done";
  });
  const seen: string[] = [];
  const stop = watchTasks(
    server,
    (task, owner) => seen.push(`${JSON.stringify(owner)} ${task.status} ${task.statusMessage}`),
  );
  const created = await callToolWithTask(server, "job", {}, info()) as CreateTaskAnswer;
  assert.equal(created.ttlMs, 5000);
  assert.equal(created.pollIntervalMs, 250);
  await settled(server, created.taskId);
  stop();
  assert.deepEqual(seen, ['"" working step one', '"" completed step one']);
  assert.throws(
    () => createToolServer({ name: "bad", tasks: { ttlMs: 0 } }),
    /ttlMs must be a positive integer/,
  );
});

Deno.test("a tool's task option accepts optional or required only", () => {
  const server = createToolServer({ name: "strict" });
  assert.throws(() => server.tool("x", { task: "always" as never }, () => "x"), /task/);
  server.tool("y", { task: "required" }, () => "y");
});
