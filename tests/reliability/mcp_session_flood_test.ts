/**
 * Issue 14 item 10, replayed black-box against `agentry serve --transport http`: one unauthenticated
 * client floods `/mcp` with `initialize` requests it never completes. Before the fix the flood filled
 * the session table and every other client got 503 for up to an hour. Now that client gets 429 with
 * Retry-After once it holds 100 sessions, and other clients still connect and call tools.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { floodInitialize } from "../../src/mcp/transports/_test_flood.ts";
import { RunningCli } from "../_cli_harness.ts";

const EVERYTHING = fileURLToPath(new URL("../../examples/everything_server.ts", import.meta.url));

Deno.test("an initialize flood from one client gets 429 past 100 sessions and locks nobody else out", async () => {
  await using cli = new RunningCli(["serve", EVERYTHING, "--transport", "http", "--port", "0"]);
  const line = await cli.waitFor("stderr", /^agentry serve: listening on /);
  const url = new URL(line.replace("agentry serve: listening on ", ""));
  const port = Number(url.port);

  const flood = await floodInitialize(port, { count: 2_000, localAddress: "127.0.0.2" });
  assert.deepEqual([...flood.statuses], [[200, 100], [429, 1_900]], "no 503, no 5xx");
  assert.deepEqual([...flood.retryAfter], [["30", 1_900]]);

  const neighbour = await floodInitialize(port, { count: 10, localAddress: "127.0.0.3", connections: 2 });
  assert.deepEqual([...neighbour.statuses], [[200, 10]], "another address has its own allowance");

  const client = new Client({ name: "flood-replay", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = await client.callTool({ name: "test_simple_text", arguments: {} });
    assert.deepEqual(result.content, [{ type: "text", text: "This is a simple text response for testing." }]);
  } finally {
    await client.close();
  }
  assert.equal(await cli.stop("SIGTERM"), 0, "stops promptly with the flood's sessions still open");
});
