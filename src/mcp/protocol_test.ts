import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createTestClient } from "./testing.ts";
import { createToolServer } from "./tool_server.ts";

function waitFor(check: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let tries = 0;
    const tick = () => {
      if (check()) return resolve();
      if (++tries > 200) return reject(new Error("condition not met"));
      setTimeout(tick, 5);
    };
    tick();
  });
}

Deno.test("registering a tool while a session is connected sends tools/list_changed", async () => {
  const server = createToolServer();
  await using client = await createTestClient(server);
  let changed = 0;
  client.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
  server.tool("late", {}, () => "here");
  await waitFor(() => changed === 1);
  assert.equal((await client.listTools()).map((t) => t.name).join(), "late");
  assert.equal(await server.notifyToolsChanged(), 1);
  await waitFor(() => changed === 2);
  assert.equal(await server.notifyPromptsChanged(), 1);
  await client.close();
  assert.equal(await server.notifyToolsChanged(), 0);
});

Deno.test("resource updates reach only sessions subscribed to that URI", async () => {
  const server = createToolServer();
  server.resource("feed://news", {}, () => "n");
  await using subscribed = await createTestClient(server);
  await using other = await createTestClient(server);
  const updates: string[] = [];
  subscribed.client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    (n) => void updates.push(n.params.uri),
  );
  await subscribed.client.subscribeResource({ uri: "feed://news" });
  assert.equal(await server.notifyResourceUpdated("feed://news"), 1);
  await waitFor(() => updates.length === 1);
  await subscribed.client.unsubscribeResource({ uri: "feed://news" });
  assert.equal(await server.notifyResourceUpdated("feed://news"), 0);
  assert.ok(other);
});

Deno.test("tools report progress to the request's progress token and log at the client's level", async () => {
  const server = createToolServer();
  server.tool("work", {}, async (_args, ctx) => {
    await ctx.session.log("debug", "fine detail");
    await ctx.session.log("warning", { step: 1 });
    for (let i = 1; i <= 3; i++) await ctx.session.progress(i, 3, `step ${i}`);
    return "done";
  });
  await using client = await createTestClient(server);
  const logs: unknown[] = [];
  client.client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void logs.push(n.params.data),
  );
  await client.client.setLoggingLevel("info");
  const progress: number[] = [];
  const result = await client.client.callTool({ name: "work", arguments: {} }, undefined, {
    onprogress: (p) => void progress.push(p.progress),
  });
  assert.equal(result.isError, undefined);
  assert.deepEqual(progress, [1, 2, 3]);
  await waitFor(() => logs.length === 1);
  assert.deepEqual(logs, [{ step: 1 }]);
  let stray = 0;
  client.client.setNotificationHandler(ProgressNotificationSchema, () => void stray++);
  await client.callTool("work");
  assert.equal(stray, 0, "no progress without a progress token");
});

Deno.test("a cancelled call is settled after the grace period even if the handler ignores it", async () => {
  const server = createToolServer({ cancelGracePeriod: 0.02 });
  let release!: () => void;
  let finished = false;
  server.tool("stubborn", {}, async () => {
    await new Promise<void>((resolve) => release = resolve);
    finished = true;
  });
  await using client = await createTestClient(server);
  const abort = new AbortController();
  const call = client.client.callTool({ name: "stubborn", arguments: {} }, undefined, {
    signal: abort.signal,
  });
  await waitFor(() => release !== undefined);
  abort.abort("user gave up");
  await assert.rejects(call, /user gave up|abort/i);
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.equal(finished, false);
  release();
});
