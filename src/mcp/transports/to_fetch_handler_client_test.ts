import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { echoServer, serveOnLoopback } from "./_test_serve.ts";
import { toFetchHandler } from "./to_fetch_handler.ts";
import { internalsOf } from "../tool_server.ts";

function newClient(): Client {
  return new Client({ name: "http-test", version: "1.0.0" });
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test("an SDK client lists and calls tools over streamable HTTP on a socket", async () => {
  const server = echoServer();
  const handler = toFetchHandler(server);
  await using served = await serveOnLoopback(handler);
  const client = newClient();
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.base}/mcp`)));
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["echo", "whoami"]);
    const result = await client.callTool({ name: "echo", arguments: { text: "hello" } });
    assert.deepEqual(result.content, [{ type: "text", text: "hello" }]);
    const whoami = await client.callTool({ name: "whoami", arguments: {} });
    assert.deepEqual(whoami.content, [{ type: "text", text: "127.0.0.1" }]);
    assert.equal(handler.sessionCount, 1);
  } finally {
    await client.close();
  }
});

Deno.test("registering a tool while serving sends tools/list_changed to a connected HTTP client", async () => {
  const server = echoServer();
  const handler = toFetchHandler(server);
  await using served = await serveOnLoopback(handler);
  const client = newClient();
  try {
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.base}/mcp`)));
    server.tool("late", { description: "Added while serving" }, () => "late");
    // The standalone GET stream opens asynchronously after initialize; notify until it has arrived.
    for (let i = 0; i < 100 && changed === 0; i++) {
      assert.equal(await server.notifyToolsChanged(), 1);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(changed > 0, "no tools/list_changed received");
    assert.ok((await client.listTools()).tools.some((t) => t.name === "late"));
  } finally {
    await client.close();
  }
});

Deno.test("an SDK client works over the legacy SSE transport", async () => {
  const server = echoServer();
  const handler = toFetchHandler(server, { transport: "sse" });
  await using served = await serveOnLoopback(handler);
  const client = newClient();
  try {
    await client.connect(new SSEClientTransport(new URL(`${served.base}/sse`)));
    const result = await client.callTool({ name: "echo", arguments: { text: "over sse" } });
    assert.deepEqual(result.content, [{ type: "text", text: "over sse" }]);
    assert.equal(handler.sessionCount, 1);
    assert.equal(await server.notifyToolsChanged(), 1);
  } finally {
    await client.close();
  }
  await waitFor(() => handler.sessionCount === 0, "the SSE session to end when the client leaves");
  assert.equal(internalsOf(server).registry.sessionCount, 0);
});

Deno.test("stateless mode serves every request with a fresh transport and keeps no sessions", async () => {
  const server = echoServer();
  const handler = toFetchHandler(server, { stateless: true });
  await using served = await serveOnLoopback(handler);
  const client = newClient();
  try {
    const transport = new StreamableHTTPClientTransport(new URL(`${served.base}/mcp`));
    await client.connect(transport);
    assert.equal(transport.sessionId, undefined);
    for (const text of ["one", "two"]) {
      const result = await client.callTool({ name: "echo", arguments: { text } });
      assert.deepEqual(result.content, [{ type: "text", text }]);
    }
    assert.equal(handler.sessionCount, 0);
    const get = await fetch(`${served.base}/mcp`, { headers: { accept: "text/event-stream" } });
    assert.equal(get.status, 405);
    await get.body?.cancel();
  } finally {
    await client.close();
  }
  await waitFor(() => internalsOf(server).registry.sessionCount === 0, "per-request servers to close");
});
