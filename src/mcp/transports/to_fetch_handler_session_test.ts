import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { ApiKeyAuth } from "../auth/api_key_auth.ts";
import { authMiddleware } from "../auth/auth_middleware.ts";
import { echoServer, INITIALIZE, mcpPost, openSession } from "./_test_serve.ts";
import { toFetchHandler } from "./to_fetch_handler.ts";
import { internalsOf } from "../tool_server.ts";

const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list" };

function onSession(id: string, headers: Record<string, string> = {}): Request {
  return mcpPost(LIST, { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25", ...headers });
}

Deno.test("a session id minted by another handler gets 404 Session not found", async () => {
  const server = echoServer();
  const first = toFetchHandler(server, { enableJsonResponse: true });
  const second = toFetchHandler(server, { enableJsonResponse: true });
  try {
    const id = await openSession(first);
    const own = await first(onSession(id));
    assert.equal(own.status, 200);
    assert.deepEqual((await own.json()).result.tools.map((t: { name: string }) => t.name), [
      "echo",
      "whoami",
    ]);
    const foreign = await second(onSession(id));
    assert.equal(foreign.status, 404);
    assert.deepEqual(await foreign.json(), {
      jsonrpc: "2.0",
      error: { code: -32001, message: "Session not found" },
      id: null,
    });
  } finally {
    await first.close();
    await second.close();
  }
});

Deno.test("a session is bound to the credential that opened it", async () => {
  const keys = new ApiKeyAuth({ keys: { "key-alice": "alice", "key-bob": "bob" } });
  const server = echoServer({ requireAuth: true }).use(authMiddleware(keys));
  const handler = toFetchHandler(server, { enableJsonResponse: true });
  try {
    const id = await openSession(handler, { headers: { "x-api-key": "key-alice" } });
    const alice = await handler(onSession(id, { "x-api-key": "key-alice" }));
    assert.equal(alice.status, 200);
    await alice.body?.cancel();
    const bob = await handler(onSession(id, { "x-api-key": "key-bob" }));
    assert.equal(bob.status, 404);
    assert.equal((await bob.json()).error.message, "Session not found");
    const bearer = await handler(onSession(id, { authorization: "Bearer key-alice" }));
    assert.equal(bearer.status, 404, "another scheme is another principal");
    await bearer.body?.cancel();
  } finally {
    await handler.close();
  }
});

Deno.test("sessions idle longer than sessionIdleTimeout are closed", async () => {
  const clock = FakeTimers.install({ toFake: ["setInterval", "clearInterval", "Date"] });
  const server = echoServer();
  const handler = toFetchHandler(server, { sessionIdleTimeout: 60, enableJsonResponse: true });
  try {
    const idle = await openSession(handler);
    const busy = await openSession(handler);
    assert.equal(internalsOf(server).registry.sessionCount, 2);
    clock.tick(45_000);
    await (await handler(onSession(busy))).body?.cancel();
    clock.tick(30_000);
    assert.equal(handler.sessionCount, 1);
    const gone = await handler(onSession(idle));
    assert.equal(gone.status, 404);
    await gone.body?.cancel();
    const alive = await handler(onSession(busy));
    assert.equal(alive.status, 200);
    await alive.body?.cancel();
    clock.tick(120_000);
    assert.equal(handler.sessionCount, 0);
    assert.equal(internalsOf(server).registry.sessionCount, 0);
    assert.equal(clock.countTimers(), 0, "the sweep stops when no session is left");
  } finally {
    await handler.close();
    clock.uninstall();
  }
});

Deno.test("new sessions beyond maxSessions get 503 until one ends", async () => {
  const handler = toFetchHandler(echoServer(), { maxSessions: 2, enableJsonResponse: true });
  try {
    const first = await openSession(handler);
    await openSession(handler);
    const full = await handler(mcpPost(INITIALIZE));
    assert.equal(full.status, 503);
    await full.body?.cancel();
    const deleted = await handler(
      new Request("http://127.0.0.1/mcp", {
        method: "DELETE",
        headers: { "mcp-session-id": first, "mcp-protocol-version": "2025-11-25" },
      }),
    );
    assert.equal(deleted.status, 200);
    assert.equal(handler.sessionCount, 1);
    await openSession(handler);
  } finally {
    await handler.close();
  }
});

Deno.test("close() ends every session and later initializations are refused", async () => {
  const server = echoServer();
  const handler = toFetchHandler(server, { enableJsonResponse: true });
  const id = await openSession(handler);
  await handler.close();
  assert.equal(handler.sessionCount, 0);
  assert.equal(internalsOf(server).registry.sessionCount, 0);
  const after = await handler(onSession(id));
  assert.equal(after.status, 404);
  await after.body?.cancel();
  const fresh = await handler(mcpPost(INITIALIZE));
  assert.equal(fresh.status, 503);
  await fresh.body?.cancel();
});

Deno.test("the caller's IP from the server reaches tool handlers", async () => {
  const handler = toFetchHandler(echoServer(), { enableJsonResponse: true });
  try {
    const info = { remoteAddr: { hostname: "127.0.0.9" } };
    const init = await handler(mcpPost(INITIALIZE), info);
    const id = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "whoami", arguments: {} } };
    const response = await handler(
      mcpPost(call, { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" }),
      info,
    );
    assert.equal((await response.json()).result.content[0].text, "127.0.0.9");
  } finally {
    await handler.close();
  }
});
