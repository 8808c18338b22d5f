/**
 * `agentry serve` driven by the official MCP Inspector's CLI mode (`@modelcontextprotocol/inspector`
 * --cli), over stdio and streamable HTTP. The Inspector needs Node 22, so it runs under Deno, from a
 * version-pinned `npm:` specifier, outside the project's config and lock file. The first run downloads
 * the package (hence the long bound).
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { CONFIG, MAIN, RunningCli } from "./_cli_harness.ts";
import { inspector } from "./_inspector.ts";

const EVERYTHING = fileURLToPath(new URL("../examples/everything_server.ts", import.meta.url));
const SERVE_STDIO = [
  Deno.execPath(),
  "run",
  "--quiet",
  `--config=${CONFIG}`,
  "-A",
  MAIN,
  "serve",
  EVERYTHING,
];

interface ToolsList {
  tools: Array<{ name: string }>;
}

interface ToolResult {
  content: Array<{ type: string; text?: string }>;
}

Deno.test("the MCP Inspector CLI lists and calls tools of agentry serve over stdio", async () => {
  const listed = await inspector<ToolsList>(["--method", "tools/list", "--", ...SERVE_STDIO]);
  const names = listed.tools.map((tool) => tool.name);
  assert.ok(names.includes("test_simple_text"), names.join(", "));
  assert.ok(names.includes("json_schema_2020_12_tool"), names.join(", "));
  const called = await inspector<ToolResult>([
    "--method",
    "tools/call",
    "--tool-name",
    "test_simple_text",
    "--",
    ...SERVE_STDIO,
  ]);
  assert.deepEqual(called.content, [{ type: "text", text: "This is a simple text response for testing." }]);
});

Deno.test("the MCP Inspector CLI lists and calls tools of agentry serve over streamable HTTP", async () => {
  await using cli = new RunningCli(["serve", EVERYTHING, "--transport", "http", "--port", "0"]);
  const line = await cli.waitFor("stderr", /^agentry serve: listening on /);
  const url = line.replace("agentry serve: listening on ", "");
  const listed = await inspector<ToolsList>([url, "--transport", "http", "--method", "tools/list"]);
  assert.ok(listed.tools.some((tool) => tool.name === "test_simple_text"));
  const called = await inspector<ToolResult>([
    url,
    "--transport",
    "http",
    "--method",
    "tools/call",
    "--tool-name",
    "json_schema_2020_12_tool",
    "--tool-arg",
    "name=Ada",
    "--tool-arg",
    "email=ada@example.com",
  ]);
  assert.deepEqual(called.content, [
    { type: "text", text: 'JSON Schema 2020-12 tool called with: {"name":"Ada","email":"ada@example.com"}' },
  ]);
  assert.equal(await cli.stop("SIGTERM"), 0);
});
