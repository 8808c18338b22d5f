import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { McpConnections } from "./mod.ts";
import {
  collectGarbage,
  CountingProxy,
  LoopbackServer,
  sampleServer,
  testLogger,
  waitFor,
} from "./_test_servers.ts";

const FIXTURE = fileURLToPath(new URL("../../../tests/fixtures/stdio_tool_server.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../../../deno.json", import.meta.url));

Deno.test("the sse transport connects, calls, refreshes on list_changed and closes every connection", async () => {
  const server = sampleServer();
  await using served = await new LoopbackServer(server, "sse").start();
  await using proxy = new CountingProxy(served.port);
  let changes = 0;
  const mcp = await McpConnections.connect(
    { legacy: { url: `http://127.0.0.1:${proxy.port}/sse`, transport: "sse", bearer_token: "tok" } },
    { logger: testLogger().logger, connectTimeoutMs: 3_000, onToolsChanged: () => void changes++ },
  );
  try {
    assert.equal(mcp.status().legacy.transport, "sse");
    assert.equal(mcp.status().legacy.protocol_version, "2025-11-25", "sse is a 2025 transport");
    assert.deepEqual(await mcp.call("legacy__echo", { text: "over sse" }), {
      content: "over sse",
      isError: false,
    });
    assert.ok(served.requests.every((r) => r.headers["authorization"] === "Bearer tok"));
    server.tool("late", {}, () => "late");
    await waitFor(() => changes > 0, "onToolsChanged");
    assert.ok(mcp.tools().some((t) => t.name === "legacy__late"));
    collectGarbage();
  } finally {
    await mcp.close();
  }
  await waitFor(
    () => served.openStreams === 0 && proxy.open === 0,
    "every stream and connection to close",
    2_000,
  );
});

Deno.test("a streamable-http server entry falls back to SSE when the server answers 405", async () => {
  await using served = await new LoopbackServer(sampleServer(), "sse").start();
  const { logger, records } = testLogger();
  await using mcp = await McpConnections.connect({ old: { url: `${served.base}/sse` } }, { logger });
  assert.equal(mcp.status().old.transport, "sse");
  assert.equal((await mcp.call("old__echo", { text: "fallback" })).content, "fallback");
  assert.ok(
    served.requests.some((r) => r.method === "POST" && r.headers["accept"]?.includes("text/event-stream")),
  );
  assert.ok(records.some((r) => r.message.includes("trying the SSE transport") && r.fields.status === 405));
});

Deno.test("a stdio server is started with its args, env and cwd, and its stderr goes to the debug log", async () => {
  const dir = await Deno.makeTempDir();
  const { logger, records } = testLogger();
  try {
    const mcp = await McpConnections.connect({
      local: {
        command: Deno.execPath(),
        args: ["run", "--quiet", `--config=${CONFIG}`, "--allow-env", "--allow-read", FIXTURE],
        env: { FIXTURE_GREETING: "hello from config" },
        cwd: dir,
      },
    }, { logger, connectTimeoutMs: 20_000 });
    try {
      assert.deepEqual(mcp.tools().map((t) => t.name), [
        "local__cwd",
        "local__echo",
        "local__env",
        "local__exit",
      ]);
      assert.equal(mcp.status().local.transport, "stdio");
      assert.equal(
        mcp.status().local.protocol_version,
        "2026-07-28",
        "our stdio servers speak 2026-07-28 too",
      );
      assert.equal((await mcp.call("local__echo", { text: "piped" })).content, "piped");
      assert.equal((await mcp.call("local__env", { name: "FIXTURE_GREETING" })).content, "hello from config");
      assert.ok((await mcp.call("local__env", { name: "PATH" })).content.length > 0);
      assert.equal((await mcp.call("local__cwd", {})).content, await Deno.realPath(dir));
      await waitFor(
        () => records.some((r) => r.level === "debug" && r.fields.line === "stdio fixture: starting"),
        "stderr",
      );
    } finally {
      await mcp.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a stdio server whose command does not exist fails connect with our reason", async () => {
  const error = await McpConnections.connect(
    { missing: { command: "/nonexistent/agentry-no-such-server" } },
    { logger: testLogger().logger, connectTimeoutMs: 3_000 },
  ).catch((e) => e);
  assert.equal(error.message, "MCP server missing could not be connected: the command was not found");
});

Deno.test("a stdio server that exits answers 'reconnecting', is started again and works", async () => {
  const { logger } = testLogger();
  const mcp = await McpConnections.connect({
    local: {
      command: Deno.execPath(),
      args: ["run", "--quiet", `--config=${CONFIG}`, "--allow-env", "--allow-read", FIXTURE],
    },
  }, { logger, connectTimeoutMs: 20_000, reconnect: { baseDelayMs: 20, maxDelayMs: 50 } });
  try {
    assert.equal((await mcp.call("local__exit", {})).content, "bye");
    await waitFor(() => !mcp.status().local.connected, "the drop to be seen");
    assert.deepEqual(await mcp.call("local__echo", { text: "x" }), {
      content: "server local is reconnecting",
      isError: true,
    });
    await waitFor(() => mcp.status().local.connected, "the restart", 20_000);
    assert.equal(mcp.status().local.reconnects, 1);
    assert.equal((await mcp.call("local__echo", { text: "again" })).content, "again");
  } finally {
    await mcp.close();
  }
});
