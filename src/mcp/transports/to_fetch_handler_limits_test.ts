import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ApiKeyAuth } from "../auth/api_key_auth.ts";
import { authMiddleware } from "../auth/auth_middleware.ts";
import { internalsOf } from "../tool_server.ts";
import { floodInitialize } from "./_test_flood.ts";
import { echoServer, INITIALIZE, mcpPost, openSession, serveOnLoopback } from "./_test_serve.ts";
import { toFetchHandler } from "./to_fetch_handler.ts";

const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list" };

function from(hostname: string) {
  return { remoteAddr: { hostname } };
}

function onSession(id: string, headers: Record<string, string> = {}): Request {
  return mcpPost(LIST, { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25", ...headers });
}

async function status(response: Response | Promise<Response>): Promise<number> {
  const answer = await response;
  await answer.body?.cancel();
  return answer.status;
}

/** Connects the SDK client from 127.0.0.1, calls `echo`, and closes. */
async function echoThroughSdk(base: string): Promise<unknown> {
  const client = new Client({ name: "limits-test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    return (await client.callTool({ name: "echo", arguments: { text: "still here" } })).content;
  } finally {
    await client.close();
  }
}

Deno.test("a flood of 10,000 uninitialised initialize requests from one client does not lock out another", async () => {
  const handler = toFetchHandler(echoServer());
  await using served = await serveOnLoopback(handler);
  const flood = await floodInitialize(served.port, { count: 10_000, localAddress: "127.0.0.2" });
  assert.deepEqual([...flood.statuses], [[200, 100], [429, 9_900]], "100 sessions, then 429 for that client");
  assert.deepEqual([...flood.retryAfter], [["30", 9_900]]);
  assert.equal(handler.sessionCount, 100);
  assert.deepEqual(await echoThroughSdk(served.base), [{ type: "text", text: "still here" }]);
});

Deno.test("sessions never initialised do not count: a flood of them cannot fill maxSessions", async () => {
  const handler = toFetchHandler(echoServer(), { maxSessions: 50, maxSessionsPerClient: 10_000 });
  await using served = await serveOnLoopback(handler);
  const flood = await floodInitialize(served.port, { count: 500, localAddress: "127.0.0.3" });
  assert.deepEqual([...flood.statuses], [[200, 500]], "the oldest waiting session makes room");
  assert.ok(handler.sessionCount <= 50, `${handler.sessionCount} sessions held`);
  assert.deepEqual(await echoThroughSdk(served.base), [{ type: "text", text: "still here" }]);
});

Deno.test("a client over its per-client cap gets 429 with Retry-After while another client still gets in", async () => {
  const keys = new ApiKeyAuth({ keys: { "key-alice": "alice", "key-bob": "bob" } });
  const server = echoServer({ requireAuth: true }).use(authMiddleware(keys));
  const handler = toFetchHandler(server, {
    maxSessionsPerClient: 2,
    sessionInitTimeout: 5,
    enableJsonResponse: true,
  });
  const alice = { "x-api-key": "key-alice" };
  try {
    const first = await openSession(handler, { headers: alice, info: from("10.0.0.1") });
    await openSession(handler, { headers: alice, info: from("10.0.0.2"), initialized: false });
    const refused = await handler(mcpPost(INITIALIZE, alice), from("10.0.0.3"));
    assert.equal(refused.status, 429, "the principal counts, not the address");
    assert.equal(refused.headers.get("retry-after"), "5");
    assert.equal((await refused.json()).error.message, "Too many sessions for this client");
    await openSession(handler, { headers: { "x-api-key": "key-bob" }, info: from("10.0.0.1") });
    const deleted = new Request("http://127.0.0.1/mcp", {
      method: "DELETE",
      headers: { ...alice, "mcp-session-id": first, "mcp-protocol-version": "2025-11-25" },
    });
    assert.equal(await status(handler(deleted)), 200);
    await openSession(handler, { headers: alice });
  } finally {
    await handler.close();
  }
});

Deno.test("without a principal the cap is per address, IPv6 grouped by /64", async () => {
  const handler = toFetchHandler(echoServer(), { maxSessionsPerClient: 1, enableJsonResponse: true });
  try {
    await openSession(handler, { info: from("2001:db8:1:2::10") });
    assert.equal(await status(handler(mcpPost(INITIALIZE), from("2001:db8:1:2:ffff::1"))), 429);
    await openSession(handler, { info: from("2001:db8:1:3::10") });
    await openSession(handler, { info: from("192.0.2.1") });
    assert.equal(await status(handler(mcpPost(INITIALIZE), from("::ffff:192.0.2.1"))), 429);
    await openSession(handler);
    await openSession(handler);
    assert.equal(handler.sessionCount, 5, "a request without a peer address has no per-client cap");
  } finally {
    await handler.close();
  }
});

Deno.test("the per-client cap applies to the legacy SSE transport", async () => {
  const handler = toFetchHandler(echoServer(), { transport: "sse", maxSessionsPerClient: 1 });
  const open = () =>
    handler(
      new Request("http://127.0.0.1/sse", { headers: { accept: "text/event-stream" } }),
      from("10.0.0.7"),
    );
  try {
    const stream = await open();
    assert.equal(stream.status, 200);
    assert.equal(await status(open()), 429);
    await stream.body?.cancel();
  } finally {
    await handler.close();
  }
});

Deno.test("sessions never initialised close after sessionInitTimeout; initialised ones stay", async () => {
  const clock = FakeTimers.install({ toFake: ["setInterval", "clearInterval", "Date"] });
  const server = echoServer();
  const handler = toFetchHandler(server, { sessionInitTimeout: 10, enableJsonResponse: true });
  try {
    const waiting = await openSession(handler, { initialized: false });
    const ready = await openSession(handler);
    assert.equal(handler.sessionCount, 2);
    clock.tick(12_000);
    assert.equal(handler.sessionCount, 1);
    assert.equal(await status(handler(onSession(waiting))), 404);
    assert.equal(await status(handler(onSession(ready))), 200);
    assert.equal(internalsOf(server).registry.sessionCount, 1);
  } finally {
    await handler.close();
    clock.uninstall();
  }
});

Deno.test("maxSessions counts initialised sessions; one initialised past it is closed", async () => {
  const handler = toFetchHandler(echoServer(), { maxSessions: 2, enableJsonResponse: true });
  try {
    const a = await openSession(handler, { info: from("10.0.0.1") });
    const b = await openSession(handler, { info: from("10.0.0.2"), initialized: false });
    const c = await openSession(handler, { info: from("10.0.0.3"), initialized: false });
    const d = await openSession(handler, { info: from("10.0.0.4"), initialized: false });
    assert.equal(await status(handler(onSession(b))), 404, "the oldest waiting session made room");
    for (const id of [c, d]) {
      const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
      const notified = handler(mcpPost({ jsonrpc: "2.0", method: "notifications/initialized" }, headers));
      assert.equal(await status(notified), 202);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    assert.equal(await status(handler(onSession(c))), 200);
    assert.equal(await status(handler(onSession(d))), 404, "no room when it initialised: closed");
    assert.equal(await status(handler(mcpPost(INITIALIZE), from("10.0.0.5"))), 503);
    assert.equal(await status(handler(onSession(a))), 200);
  } finally {
    await handler.close();
  }
});
