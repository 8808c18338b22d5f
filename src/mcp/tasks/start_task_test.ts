import assert from "node:assert/strict";
import { isInputRequired } from "../input_required.ts";
import { serveOnLoopback } from "../transports/_test_serve.ts";
import { toFetchHandler } from "../transports/to_fetch_handler.ts";
import { createToolServer } from "../tool_server.ts";
import { startTask } from "./start_task.ts";
import { taskStoreOf } from "./task_requests.ts";
import { modern } from "./_test_modern.ts";

Deno.test("startTask refuses once the call caught its InputRequiredSignal: no orphaned task", async () => {
  const server = createToolServer({ name: "orphans" });
  const refusals: string[] = [];
  let caught = 0;
  server.tool("sneaky", { task: "optional" }, async (_args, ctx) => {
    try {
      await ctx.session.elicit({ message: "sure?", requestedSchema: { type: "object", properties: {} } });
    } catch (error) {
      if (!isInputRequired(error)) throw error;
      caught++; // the mistake: carrying on without the answer
    }
    try {
      await startTask(ctx);
    } catch (error) {
      refusals.push((error as Error).message);
      throw error;
    }
    return "done";
  });
  await using served = await serveOnLoopback(toFetchHandler(server));
  const url = `${served.base}/mcp`;

  const round1 = await modern(url, "tools/call", { name: "sneaky", arguments: {} });
  assert.equal(caught, 1);
  assert.equal(refusals.length, 1);
  assert.match(refusals[0], /startTask after an InputRequiredSignal/);
  assert.match(refusals[0], /Do not catch the signal/);
  assert.equal(taskStoreOf(server).size, 0, "no task was made");
  assert.equal(round1.result?.resultType, "input_required", "the request still asks its question");

  // With the answer, nothing is caught and the call becomes a task as usual.
  const created = await modern(url, "tools/call", {
    name: "sneaky",
    arguments: {},
    inputResponses: { e1: { action: "accept", content: {} } },
    requestState: round1.result?.requestState,
  });
  assert.equal(created.result?.resultType, "task");
  assert.equal(caught, 1);
  assert.equal(taskStoreOf(server).size, 1);
});
