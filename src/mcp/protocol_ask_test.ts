import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createTestClient } from "./testing.ts";
import { createToolServer } from "./tool_server.ts";
import { toFetchHandler } from "./transports/to_fetch_handler.ts";
import type { ToolServer } from "./tool_server.ts";

/** A server whose `ask` tool elicits, samples or lists roots, as its `what` argument says. */
function askingServer(): ToolServer {
  return createToolServer({ name: "asking" }).tool(
    "ask",
    { description: "Asks the client", input: z.object({ what: z.string() }) },
    async (args, ctx) => {
      const what = args.what;
      if (what === "elicit") {
        await ctx.session.elicit({ message: "name?", requestedSchema: { type: "object", properties: {} } });
      } else if (what === "sample") {
        await ctx.session.sample({ messages: [], maxTokens: 1 });
      } else await ctx.session.listRoots();
      return "asked";
    },
  );
}

function errorOf(result: CallToolResult): Record<string, unknown> {
  assert.equal(result.isError, true);
  const text = (result.content[0] as { text: string }).text;
  return (JSON.parse(text) as { error: Record<string, unknown> }).error;
}

Deno.test("a 2025 session: asking what the client did not declare is the tool error MISSING_CLIENT_CAPABILITY", async () => {
  await using client = await createTestClient(askingServer());
  for (
    const [what, capability, method] of [
      ["elicit", "elicitation", "elicitation/create"],
      ["sample", "sampling", "sampling/createMessage"],
      ["roots", "roots", "roots/list"],
    ]
  ) {
    const error = errorOf(await client.callTool("ask", { what }));
    assert.equal(error.code, "MISSING_CLIENT_CAPABILITY");
    assert.match(String(error.message), new RegExp(`the ${capability} capability`));
    assert.match(String(error.suggestion), /initialize capabilities/);
    assert.deepEqual(error.details, { required_capability: capability, method });
  }
});

Deno.test("a 2025 session: a declared capability is asked as before", async () => {
  await using client = await createTestClient(askingServer(), { roots: [{ uri: "file:///tmp" }] });
  const result = await client.callTool("ask", { what: "roots" });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.content, [{ type: "text", text: "asked" }]);
});

Deno.test("stateless 2025 HTTP: asking the client is the tool error LIVE_SESSION_REQUIRED", async () => {
  const handler = toFetchHandler(askingServer(), { stateless: true });
  const client = new Client({ name: "stateless", version: "1.0.0" }, {
    capabilities: { elicitation: {}, sampling: {}, roots: {} },
  });
  const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
    fetch: (input, init) => handler(new Request(input, init)),
  });
  try {
    await client.connect(transport);
    const error = errorOf(
      await client.callTool({ name: "ask", arguments: { what: "elicit" } }) as CallToolResult,
    );
    assert.equal(error.code, "LIVE_SESSION_REQUIRED");
    assert.match(String(error.message), /elicitation\/create needs a live session/);
    assert.match(String(error.suggestion), /2026-07-28/);
  } finally {
    await client.close();
    await handler.close?.();
  }
});
