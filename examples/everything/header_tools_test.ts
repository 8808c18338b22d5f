import assert from "node:assert/strict";
import { createTestClient, createToolServer } from "../../src/mcp/mod.ts";
import { CUSTOM_HEADERS_INPUT, headerTools } from "./header_tools.ts";

function server() {
  return createToolServer({ name: "header-tools", settings: {} }).include(headerTools());
}

Deno.test("test_custom_headers advertises its x-mcp-header annotations verbatim", async () => {
  await using client = await createTestClient(server());
  const [tool] = await client.listTools();
  assert.equal(tool.name, "test_custom_headers");
  assert.deepEqual(tool.inputSchema, CUSTOM_HEADERS_INPUT);
  const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
  assert.equal(properties.region["x-mcp-header"], "Region");
  assert.equal(properties.priority["x-mcp-header"], "Priority");
  assert.equal(properties.query["x-mcp-header"], undefined);
});

Deno.test("test_custom_headers echoes its arguments and validates them against its schema", async () => {
  await using client = await createTestClient(server());
  const result = await client.callTool("test_custom_headers", {
    region: "us-west1",
    priority: 3,
    query: "q",
  });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.content, [{
    type: "text",
    text: 'Custom headers tool called with: {"region":"us-west1","priority":3,"query":"q"}',
  }]);
  assert.equal((await client.callTool("test_custom_headers", { priority: 3 })).isError, true);
  assert.equal(
    (await client.callTool("test_custom_headers", { region: "x", priority: "high" })).isError,
    true,
  );
});
