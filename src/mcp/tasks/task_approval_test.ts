/**
 * A task-capable tool behind an approval gate, on 2026-07-28 requests declaring the Tasks extension:
 * the approval is decided in the request, before the handler runs and so before `startTask`; the
 * task exists only for an approved call.
 *
 * @module
 */

import assert from "node:assert/strict";
import { approvalGate } from "../approval/approval_gate.ts";
import { elicitationApprover } from "../approval/elicitation_approver.ts";
import { PendingApprover } from "../approval/pending_approver.ts";
import { Logger, memorySink } from "../../log.ts";
import { serveOnLoopback } from "../transports/_test_serve.ts";
import { toFetchHandler } from "../transports/to_fetch_handler.ts";
import { ToolServer } from "../tool_server.ts";
import type { Approver } from "../approval/approver.ts";
import { startTask } from "./start_task.ts";
import { modern, onTheWire } from "./_test_modern.ts";

function deployServer(approver: Approver) {
  const sink = memorySink();
  const server = new ToolServer({ name: "deploys", logger: new Logger("test", { sink }) });
  const ran: string[] = [];
  server.use(approvalGate(approver, { timeout: 10 }));
  server.tool("deploy", { task: "optional", requiresApproval: true }, async (_args, ctx) => {
    ran.push("handler");
    await startTask(ctx);
    await ctx.session.progress(1, 1, "deploying");
    return "deployed";
  });
  const approvalIds = () =>
    sink.records.filter((r) => r.message === "approval requested").map((r) => r.fields.approval_request_id);
  return { server, ran, approvalIds };
}

async function completed(url: string, taskId: string): Promise<Record<string, unknown>> {
  let task = await modern(url, "tasks/get", { taskId });
  for (let i = 0; i < 100 && task.result?.status !== "completed"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    task = await modern(url, "tasks/get", { taskId });
  }
  return onTheWire("get", task.result)!;
}

Deno.test("elicitation approval of a task tool: the input_required round comes before the task, under one approval id", async () => {
  const { server, ran, approvalIds } = deployServer(elicitationApprover());
  await using served = await serveOnLoopback(toFetchHandler(server));
  const url = `${served.base}/mcp`;

  const round1 = await modern(url, "tools/call", { name: "deploy", arguments: {} });
  assert.equal(round1.result?.resultType, "input_required");
  assert.ok(!("taskId" in round1.result!), "no task before the approval");
  assert.deepEqual(ran, [], "the handler does not run before the approval");
  const [key] = Object.keys(round1.result?.inputRequests as object);
  const created = await modern(url, "tools/call", {
    name: "deploy",
    arguments: {},
    inputResponses: { [key]: { action: "accept", content: { approve: true } } },
    requestState: round1.result?.requestState,
  });
  onTheWire("create", created.result);
  assert.equal(created.result?.resultType, "task");
  const task = await completed(url, created.result?.taskId as string);
  assert.deepEqual((task.result as { content: unknown }).content, [{ type: "text", text: "deployed" }]);
  const ids = approvalIds();
  assert.equal(ids.length, 2);
  assert.equal(ids[0], ids[1], "the retry carries the approval id through the task session");

  const asking = await modern(url, "tools/call", { name: "deploy", arguments: {} });
  const declined = await modern(url, "tools/call", {
    name: "deploy",
    arguments: {},
    inputResponses: { [key]: { action: "decline" } },
    requestState: asking.result?.requestState,
  });
  assert.equal(declined.result?.isError, true, "a declined approval is a tool error, not a task");
  assert.ok(!("taskId" in declined.result!));
  assert.match(JSON.stringify(declined.result?.content), /APPROVAL_DENIED/);
  assert.deepEqual(ran, ["handler"]);
});

Deno.test("pending approval of a task tool: the request waits for the reviewer, then the task starts", async () => {
  const queue = new PendingApprover();
  const { server, ran } = deployServer(queue);
  await using served = await serveOnLoopback(toFetchHandler(server));
  const url = `${served.base}/mcp`;

  const calling = modern(url, "tools/call", { name: "deploy", arguments: {} });
  let waiting = queue.list({ clientId: "bob" });
  for (let i = 0; i < 200 && waiting.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    waiting = queue.list({ clientId: "bob" });
  }
  assert.equal(waiting.length, 1);
  assert.deepEqual(ran, [], "no handler and no task while the approval is pending");
  assert.deepEqual(queue.resolve(waiting[0].request_id, { clientId: "bob" }, { approve: true }), {
    resolved: true,
    request_id: waiting[0].request_id,
    approved: true,
  });
  const created = await calling;
  onTheWire("create", created.result);
  const task = await completed(url, created.result?.taskId as string);
  assert.deepEqual((task.result as { content: unknown }).content, [{ type: "text", text: "deployed" }]);

  const denying = modern(url, "tools/call", { name: "deploy", arguments: {} });
  for (let i = 0; i < 200 && queue.size === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  queue.resolve(queue.list({ clientId: "bob" })[0].request_id, { clientId: "bob" }, { approve: false });
  const denied = await denying;
  assert.equal(denied.result?.isError, true);
  assert.ok(!("taskId" in denied.result!), "a denied call never becomes a task");
  assert.deepEqual(ran, ["handler"]);
});
