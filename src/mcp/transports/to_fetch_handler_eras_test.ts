import assert from "node:assert/strict";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { echoServer, serveOnLoopback } from "./_test_serve.ts";
import { toFetchHandler } from "./to_fetch_handler.ts";

Deno.test("one endpoint serves a 2026-07-28 client and a 2025-11-25 client side by side", async () => {
  const server = echoServer();
  const handler = toFetchHandler(server);
  await using served = await serveOnLoopback(handler);
  const url = new URL(`${served.base}/mcp`);
  const modern = new ModernClient({ name: "modern", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  const legacy = new Client({ name: "legacy", version: "1.0.0" });
  try {
    await modern.connect(new ModernTransport(url));
    await legacy.connect(new StreamableHTTPClientTransport(url));
    assert.equal(handler.sessionCount, 1, "only the 2025 session is counted");
    const listed = await modern.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name), ["echo", "whoami"]);
    const modernCall = await modern.callTool({ name: "echo", arguments: { text: "modern" } });
    assert.deepEqual(modernCall.content, [{ type: "text", text: "modern" }]);
    const legacyCall = await legacy.callTool({ name: "echo", arguments: { text: "legacy" } });
    assert.deepEqual(legacyCall.content, [{ type: "text", text: "legacy" }]);
    const whoami = await modern.callTool({ name: "whoami", arguments: {} });
    assert.deepEqual(whoami.content, [{ type: "text", text: "127.0.0.1" }]);
    assert.equal(handler.sessionCount, 1);
  } finally {
    await modern.close();
    await legacy.close();
  }
});
