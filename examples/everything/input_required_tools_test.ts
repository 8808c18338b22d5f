import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createTestClient, createToolServer, type TestClient } from "../../src/mcp/mod.ts";
import { CONFIRM_FORM, inputRequiredTools, NAME_FORM } from "./input_required_tools.ts";

/** A 2025-era client (in memory) that answers every kind of request and records what it was asked. */
async function legacyClient(
  capabilities: Record<string, object>,
): Promise<{ client: TestClient; asked: string[] }> {
  const server = createToolServer({ settings: {} }).include(inputRequiredTools());
  const client = await createTestClient(server, { capabilities });
  const asked: string[] = [];
  const on = client.client;
  if (capabilities.elicitation) {
    on.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(`elicit:${request.params.message}`);
      const params = request.params;
      const field = "requestedSchema" in params ? Object.keys(params.requestedSchema.properties)[0] : "url";
      return { action: "accept", content: { [field]: field === "ok" ? true : `my ${field}` } };
    });
  }
  if (capabilities.sampling) {
    on.setRequestHandler(CreateMessageRequestSchema, (request) => {
      const content = request.params.messages[0].content;
      asked.push(`sample:${!Array.isArray(content) && content.type === "text" ? content.text : ""}`);
      return { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" };
    });
  }
  if (capabilities.roots) {
    on.setRequestHandler(ListRootsRequestSchema, () => {
      asked.push("roots");
      return { roots: [{ uri: "file:///work", name: "work" }] };
    });
  }
  return { client, asked };
}

function text(result: CallToolResult): string {
  assert.notEqual(result.isError, true, JSON.stringify(result));
  const [block] = result.content;
  return block.type === "text" ? block.text : "";
}

Deno.test("on a 2025-era session the same tools ask through server-to-client requests", async () => {
  const { client, asked } = await legacyClient({ elicitation: {}, sampling: {}, roots: {} });
  await using _ = client;
  assert.equal(text(await client.callTool("test_input_required_result_elicitation")), "Hello, my name!");
  assert.equal(
    text(await client.callTool("test_input_required_result_sampling")),
    "The model answered: Paris",
  );
  assert.equal(
    text(await client.callTool("test_input_required_result_list_roots")),
    "Client roots: file:///work",
  );
  assert.equal(
    text(await client.callTool("test_input_required_result_request_state")),
    "state-ok: confirmed=true",
  );
  assert.equal(
    text(await client.callTool("test_input_required_result_multiple_inputs")),
    "Paris my name (roots: file:///work)",
  );
  assert.equal(
    text(await client.callTool("test_input_required_result_multi_round")),
    "my name likes my color",
  );
  const prompt = await client.getPrompt("test_input_required_result_prompt");
  assert.deepEqual(prompt.messages[0].content, {
    type: "text",
    text: "Using the context 'my context', answer the user's question.",
  });
  assert.deepEqual(asked.slice(0, 4), [
    `elicit:${NAME_FORM.message}`,
    "sample:What is the capital of France?",
    "roots",
    `elicit:${CONFIRM_FORM.message}`,
  ]);
  assert.ok(asked.includes("elicit:Step 2: What is your favorite color?"));
});

Deno.test("the capabilities tool asks only what the 2025-era client declared at initialize", async () => {
  const { client, asked } = await legacyClient({ sampling: {} });
  await using _ = client;
  const answer = text(await client.callTool("test_input_required_result_capabilities"));
  assert.equal(answer, "no elicitation; model=Paris; no roots");
  assert.deepEqual(asked, ["sample:Say hello"]);
});
