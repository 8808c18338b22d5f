import assert from "node:assert/strict";
import { createToolServer, toFetchHandler } from "../../src/mcp/mod.ts";
import { modern, onTheWire } from "../../src/mcp/tasks/_test_modern.ts";
import { serveOnLoopback } from "../../src/mcp/transports/_test_serve.ts";
import { taskTools } from "./task_tools.ts";

type Answer = Awaited<ReturnType<typeof modern>>;

async function ended(url: string, taskId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const task = (await modern(url, "tasks/get", { taskId })).result!;
    if (["completed", "failed", "cancelled"].includes(task.status as string)) return onTheWire("get", task);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${taskId} did not end`);
}

function taskIdOf(answer: Answer): string {
  onTheWire("create", answer.result);
  return answer.result?.taskId as string;
}

Deno.test("the task fixtures: sync greet, a computed task, a tool error, a crash, a cancelled job", async () => {
  const server = createToolServer({ name: "task-fixtures" });
  server.include(taskTools());
  await using served = await serveOnLoopback(toFetchHandler(server));
  const url = `${served.base}/mcp`;

  const greeting = await modern(url, "tools/call", { name: "greet", arguments: { name: "World" } });
  assert.deepEqual(greeting.result?.content, [{ type: "text", text: "Hello, World!" }]);

  const computed = await ended(
    url,
    taskIdOf(
      await modern(url, "tools/call", { name: "slow_compute", arguments: { seconds: 0, label: "zero" } }),
    ),
  );
  assert.deepEqual((computed.result as { content: unknown }).content, [{
    type: "text",
    text: "Computed zero in 0 s",
  }]);

  const failing = await ended(
    url,
    taskIdOf(await modern(url, "tools/call", { name: "failing_job", arguments: {} })),
  );
  assert.equal(failing.status, "completed");
  assert.equal((failing.result as { isError?: boolean }).isError, true);

  const crashed = await ended(
    url,
    taskIdOf(await modern(url, "tools/call", { name: "protocol_error_job", arguments: {} })),
  );
  assert.equal(crashed.status, "failed");
  assert.equal((crashed.error as { code: number }).code, -32603);

  const long = taskIdOf(
    await modern(url, "tools/call", { name: "slow_compute", arguments: { seconds: 60 } }),
  );
  onTheWire("ack", (await modern(url, "tasks/cancel", { taskId: long })).result);
  assert.equal((await ended(url, long)).status, "cancelled");

  const refused = await modern(url, "tools/call", { name: "failing_job", arguments: {} }, {});
  assert.equal(refused.error?.code, -32021);
  const plain = await modern(url, "tools/call", { name: "slow_compute", arguments: { seconds: 0 } }, {});
  assert.deepEqual(plain.result?.content, [{ type: "text", text: "Computed compute in 0 s" }]);
});

Deno.test("the task fixtures ask for input: inside the task (confirm_delete, multi_input) and before it (test_tool_with_task)", async () => {
  const server = createToolServer({ name: "task-input-fixtures" });
  server.include(taskTools());
  await using served = await serveOnLoopback(toFetchHandler(server));
  const url = `${served.base}/mcp`;

  const multi = taskIdOf(await modern(url, "tools/call", { name: "multi_input", arguments: {} }));
  let task = (await modern(url, "tasks/get", { taskId: multi })).result!;
  for (let i = 0; i < 50 && Object.keys(task.inputRequests ?? {}).length < 2; i++) {
    task = (await modern(url, "tasks/get", { taskId: multi })).result!;
  }
  assert.deepEqual(Object.keys(task.inputRequests as object), ["e1", "e2"]);
  await modern(url, "tasks/update", {
    taskId: multi,
    inputResponses: { e1: { action: "accept", content: { name: "Ada" } } },
  });
  await modern(url, "tasks/update", {
    taskId: multi,
    inputResponses: { e2: { action: "accept", content: { confirm: true } } },
  });
  const both = await ended(url, multi);
  assert.deepEqual((both.result as { content: unknown }).content, [{
    type: "text",
    text: "name=Ada confirm=true",
  }]);

  const round1 = await modern(url, "tools/call", { name: "test_tool_with_task", arguments: {} });
  assert.equal(round1.result?.resultType, "input_required");
  assert.deepEqual(Object.keys(round1.result?.inputRequests as object), ["user_name"]);
  const round2 = await modern(url, "tools/call", {
    name: "test_tool_with_task",
    arguments: {},
    inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
    requestState: round1.result?.requestState,
  });
  const greeted = await ended(url, taskIdOf(round2));
  assert.match((greeted.result as { content: { text: string }[] }).content[0].text, /Hello, Alice!/);
});
