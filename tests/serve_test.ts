/**
 * Black-box tests of `agentry serve` over each transport, with the MCP SDK's client.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from "@modelcontextprotocol/client";
import { CONFIG, MAIN, runCli, RunningCli } from "./_cli_harness.ts";

const EVERYTHING = fileURLToPath(new URL("../examples/everything_server.ts", import.meta.url));
const SIMPLE_TEXT = "This is a simple text response for testing.";

/** Connects, lists the tools, calls `test_simple_text`, and closes. */
async function exercise(transport: Transport): Promise<void> {
  const client = new Client({ name: "serve-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === "test_simple_text"), "test_simple_text is listed");
    assert.ok(tools.length >= 10, `${tools.length} tools`);
    const result = await client.callTool({ name: "test_simple_text", arguments: {} });
    assert.deepEqual(result.content, [{ type: "text", text: SIMPLE_TEXT }]);
  } finally {
    await client.close();
  }
}

async function listening(cli: RunningCli): Promise<URL> {
  const line = await cli.waitFor("stderr", /^agentry serve: listening on /);
  return new URL(line.replace("agentry serve: listening on ", ""));
}

Deno.test("serve --transport http answers the SDK's streamable HTTP client and exits 0 on SIGTERM", async () => {
  await using cli = new RunningCli(["serve", EVERYTHING, "--transport", "http", "--port", "0"]);
  const url = await listening(cli);
  assert.equal(url.pathname, "/mcp");
  assert.equal(url.hostname, "127.0.0.1");
  await exercise(new StreamableHTTPClientTransport(url));
  assert.equal(await cli.stop("SIGTERM"), 0);
  assert.deepEqual(cli.stdout, [], "nothing on stdout");
  assert.equal(cli.stderr.filter((line) => line.startsWith("agentry serve: listening")).length, 1);
});

Deno.test("serve --transport http answers a 2026-07-28 client on the same URL, with no Deno warning", async () => {
  await using cli = new RunningCli(["serve", EVERYTHING, "--transport", "http", "--port", "0"]);
  const url = await listening(cli);
  const client = new ModernClient({ name: "serve-test", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(new ModernHttp(url));
  try {
    const result = await client.callTool({ name: "test_simple_text", arguments: {} });
    assert.deepEqual(result.content, [{ type: "text", text: SIMPLE_TEXT }]);
  } finally {
    await client.close();
  }
  assert.equal(await cli.stop("SIGTERM"), 0);
  // deno.json's `unstable: ["no-legacy-abort"]`: the SDK reads request.signal, which warns in legacy mode.
  assert.ok(!cli.stderr.some((line) => line.includes("legacy behavior")), cli.stderr.join("\n"));
});

Deno.test("serve --transport sse answers the SDK's SSE client and exits 0 on SIGINT", async () => {
  await using cli = new RunningCli(["serve", EVERYTHING, "--transport", "sse", "--port", "0"]);
  const url = await listening(cli);
  assert.equal(url.pathname, "/sse");
  await exercise(new SSEClientTransport(url));
  assert.equal(await cli.stop("SIGINT"), 0);
});

Deno.test("serve over stdio answers the SDK's stdio client, keeping stdout for the protocol", async () => {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--quiet", `--config=${CONFIG}`, "-A", MAIN, "serve", EVERYTHING],
    env: { NO_COLOR: "1" },
    stderr: "pipe",
  });
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr.push(new TextDecoder().decode(chunk)));
  const timer = setTimeout(() => void transport.close(), 30_000);
  try {
    await exercise(transport);
  } finally {
    clearTimeout(timer);
    await transport.close();
  }
  assert.ok(!stderr.join("").includes("agentry serve: listening"), "stdio prints no listening line");
});

Deno.test("serve exits 1 with a message for a missing FILE or a module without a ToolServer export", async () => {
  const missing = await runCli(["serve", "no/such/server.ts"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^agentry: no\/such\/server\.ts: no such file$/m);
  const wrong = await runCli(["serve", fileURLToPath(new URL("../src/version.ts", import.meta.url))]);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /default export of .*version\.ts is missing: export a ToolServer/);
  assert.equal(wrong.stdout, "");
});

Deno.test("serve exits 2 for unknown flags and bad settings, and prints its help on stdout", async () => {
  for (
    const [args, env] of [
      [["serve", EVERYTHING, "--bogus"], {}],
      [["serve", EVERYTHING, "--transport", "ws"], {}],
      [["serve"], {}],
      [["serve", EVERYTHING], { AGENTRY_LOG_LEVEL: "loud" }],
    ] as Array<[string[], Record<string, string>]>
  ) {
    const result = await runCli(args, { env });
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr.trim(), /^agentry: [^\n]+$/, result.stderr);
  }
  const help = await runCli(["serve", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: agentry serve FILE/);
  assert.match((await runCli(["--help"])).stdout, /serve FILE/);
});
