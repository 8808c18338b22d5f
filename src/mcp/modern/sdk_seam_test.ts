/**
 * Guards the one `@internal` SDK v2 seam the modern leg relies on: the HTTP entry asks
 * `McpServer.toolInputSchemaJson(name)` for a called tool's input schema to check its `Mcp-Param-*`
 * headers (SEP-2243), and `BoundMcpServer` overrides it to answer from the tool server's registry.
 * An SDK upgrade that renames, removes or stops calling it would silently drop the checks; these
 * tests fail first, saying so.
 *
 * @module
 */

import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import { toFetchHandler } from "../transports/to_fetch_handler.ts";
import { BoundMcpServer } from "./modern_server.ts";
import { createToolServer } from "../tool_server.ts";
import { answerOf, modernPost } from "./_test_modern.ts";

const SEAM =
  "McpServer.toolInputSchemaJson (SDK v2 @internal, overridden by BoundMcpServer for Mcp-Param-* checks)";

/** A `deploy` tool whose `zone` argument also travels as the `Mcp-Param-Zone` header. */
function zoneServer() {
  const input = {
    type: "object" as const,
    properties: { zone: { type: "string", "x-mcp-header": "Zone" }, note: { type: "string" } },
    required: ["zone"],
  };
  return createToolServer({ name: "zones" }).tool("deploy", { input }, (args) => `to ${args.zone}`);
}

Deno.test("SDK seam: McpServer still has toolInputSchemaJson(name)", () => {
  const method = (McpServer.prototype as unknown as Record<string, unknown>).toolInputSchemaJson;
  assert.equal(
    typeof method,
    "function",
    `${SEAM} is gone from @modelcontextprotocol/server: find how its HTTP entry now gets a tool's input ` +
      "schema and override that instead, or Mcp-Param-* headers go unchecked",
  );
  assert.equal((method as (name: string) => unknown).length, 1, `${SEAM} changed its parameters`);
  const bound = new BoundMcpServer(zoneServer());
  assert.equal(
    (bound.toolInputSchemaJson("deploy")?.properties as Record<string, unknown>).zone !== undefined,
    true,
  );
  assert.equal(bound.toolInputSchemaJson("nope"), undefined);
});

Deno.test("SDK seam: the HTTP entry asks toolInputSchemaJson before a tools/call and enforces the headers", async () => {
  const asked: string[] = [];
  const original = BoundMcpServer.prototype.toolInputSchemaJson;
  BoundMcpServer.prototype.toolInputSchemaJson = function (this: BoundMcpServer, name: string) {
    asked.push(name);
    return original.call(this, name);
  };
  const handler = toFetchHandler(zoneServer());
  try {
    const call = { name: "deploy", arguments: { zone: "eu" } };
    const wrong = await answerOf(
      await handler(modernPost("tools/call", call, { headers: { "mcp-param-zone": "us" } })),
    );
    assert.deepEqual(
      asked,
      ["deploy"],
      `the SDK's HTTP entry no longer calls ${SEAM} before dispatching tools/call: Mcp-Param-* headers go unchecked`,
    );
    assert.equal(wrong.status, 400, `a mismatched Mcp-Param-Zone header was not rejected (${SEAM})`);
  } finally {
    BoundMcpServer.prototype.toolInputSchemaJson = original;
    await handler.close();
  }
});
