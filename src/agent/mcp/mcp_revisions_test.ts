import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { McpConnections } from "./mod.ts";
import { sdkV1HttpServer, sdkV2HttpServer } from "./_sdk_servers.ts";
import { z } from "zod";
import { approvalGate, createToolServer, elicitationApprover } from "../../mcp/mod.ts";
import { Logger, memorySink } from "../../log.ts";
import { LoopbackServer, testLogger } from "./_test_servers.ts";

const V1_STDIO = fileURLToPath(new URL("../../../tests/fixtures/sdk_v1_stdio_server.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../../../deno.json", import.meta.url));

Deno.test("a bare SDK v1 server over HTTP is probed with server/discover, then spoken to in a 2025 session", async () => {
  await using served = await sdkV1HttpServer();
  const { logger, records } = testLogger();
  await using mcp = await McpConnections.connect({ old: { url: served.url } }, {
    logger,
    connectTimeoutMs: 3_000,
  });
  assert.equal(mcp.status().old.protocol_version, "2025-11-25");
  assert.deepEqual(await mcp.call("old__echo", { text: "from v2" }), { content: "from v2", isError: false });
  assert.equal(served.requests[0].headers["mcp-method"], "server/discover");
  assert.ok(served.requests.slice(2).every((r) => r.headers["mcp-session-id"] !== undefined));
  const connected = records.find((r) => r.message === "MCP server connected");
  assert.deepEqual(connected?.fields, {
    server: "old",
    transport: "streamable-http",
    protocol_version: "2025-11-25",
    tools: 1,
  });
});

Deno.test("a bare SDK v1 server over stdio falls back to initialize", async () => {
  await using mcp = await McpConnections.connect({
    old: { command: Deno.execPath(), args: ["run", "--quiet", `--config=${CONFIG}`, V1_STDIO] },
  }, { logger: testLogger().logger, connectTimeoutMs: 20_000 });
  assert.deepEqual(mcp.status().old, {
    connected: true,
    tools: 1,
    transport: "stdio",
    protocol_version: "2025-11-25",
    reconnects: 0,
  });
  assert.equal((await mcp.call("old__echo", { text: "piped" })).content, "piped");
});

Deno.test("a bare SDK v2 server is spoken to statelessly on 2026-07-28", async () => {
  await using served = await sdkV2HttpServer();
  await using mcp = await McpConnections.connect(
    { next: { url: served.url } },
    { logger: testLogger().logger, connectTimeoutMs: 3_000 },
  );
  assert.equal(mcp.status().next.protocol_version, "2026-07-28");
  assert.deepEqual(await mcp.call("next__echo", { text: "stateless" }), {
    content: "stateless",
    isError: false,
  });
  assert.ok(served.requests.every((r) => r.headers["mcp-session-id"] === undefined));
  assert.ok(
    served.requests.some((r) => r.headers["mcp-method"] === "tools/call" && r.headers["mcp-name"] === "echo"),
  );
});

Deno.test("a tool that needs elicitation is refused by the server (no capability declared) and the model reads why", async () => {
  await using served = await sdkV2HttpServer();
  await using mcp = await McpConnections.connect(
    { next: { url: served.url } },
    { logger: testLogger().logger, connectTimeoutMs: 3_000 },
  );
  assert.deepEqual(await mcp.call("next__confirm", {}), {
    content: "server next refused the call: Cannot request input 'confirm' (elicitation/create): " +
      "the request's client capabilities do not declare the required capability",
    isError: true,
  });
  assert.equal(mcp.status().next.connected, true);
});

Deno.test("protocol_version 2025-11-25 skips the probe; 2026-07-28 refuses a server that does not offer it", async () => {
  await using served = await sdkV1HttpServer();
  await using legacy = await McpConnections.connect(
    { old: { url: served.url, protocol_version: "2025-11-25" } },
    { logger: testLogger().logger, connectTimeoutMs: 3_000 },
  );
  assert.equal(legacy.status().old.protocol_version, "2025-11-25");
  assert.ok(served.requests.every((r) => r.headers["mcp-method"] === undefined));
  const error = await McpConnections.connect(
    { old: { url: served.url, protocol_version: "2026-07-28" } },
    { logger: testLogger().logger, connectTimeoutMs: 3_000 },
  ).catch((e) => e);
  assert.equal(
    error.message,
    "MCP server old could not be connected: the protocol version could not be agreed",
  );
});

Deno.test("protocol_version 2025-11-25 opens a 2025 session on a server that also speaks 2026-07-28", async () => {
  await using served = await sdkV2HttpServer();
  await using mcp = await McpConnections.connect(
    { next: { url: served.url, protocol_version: "2025-11-25" } },
    { logger: testLogger().logger, connectTimeoutMs: 3_000 },
  );
  assert.equal(mcp.status().next.protocol_version, "2025-11-25");
  assert.equal((await mcp.call("next__echo", { text: "old way" })).content, "old way");
});

for (const wanted of ["auto", "2025-11-25"] as const) {
  Deno.test(`a tool behind an elicitation approval on our server tells the model how to get it approved (${wanted})`, async () => {
    const server = createToolServer({ name: "bank", logger: new Logger("test", { sink: memorySink() }) })
      .use(approvalGate(elicitationApprover()))
      .tool(
        "transfer",
        { requiresApproval: true, input: z.object({ amount: z.number() }) },
        ({ amount }) => `sent ${amount}`,
      );
    await using served = await new LoopbackServer(server).start();
    await using mcp = await McpConnections.connect(
      { bank: { url: `${served.base}/mcp`, protocol_version: wanted } },
      { logger: testLogger().logger, connectTimeoutMs: 3_000 },
    );
    assert.equal(mcp.status().bank.protocol_version, wanted === "auto" ? "2026-07-28" : "2025-11-25");
    const outcome = await mcp.call("bank__transfer", { amount: 5 });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /Approval required for tool 'transfer', and this client cannot be asked/);
    assert.match(outcome.content, /PendingApprover/);
  });
}
