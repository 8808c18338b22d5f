import assert from "node:assert/strict";
import { ModelError } from "./errors.ts";
import { OpenAiResponsesClient } from "./openai_responses.ts";
import { startModelServer } from "./testing/mod.ts";
import type { ChatMessage } from "./types.ts";

const CONVERSATION: ChatMessage[] = [
  { role: "system", content: "Be brief." },
  { role: "system", content: "Use tools." },
  { role: "user", content: "weather?" },
  {
    role: "assistant",
    content: "Let me look.",
    toolCalls: [{ id: "c1", name: "get_weather", arguments: "{}" }],
  },
  { role: "tool", toolCallId: "c1", name: "get_weather", content: "sunny" },
];

Deno.test("responses client sends instructions, function_call and function_call_output items, unstored", async () => {
  await using server = startModelServer();
  const client = new OpenAiResponsesClient({ provider: "p", model: "m1", baseUrl: server.url, apiKey: "k1" });
  const tool = { name: "get_weather", description: "Weather", inputSchema: { type: "object" } };
  const turn = await client.complete({ messages: CONVERSATION, tools: [tool], stream: true });
  assert.equal(turn.text, "Tool results:\n- get_weather: sunny");
  const { body, headers, path } = server.requests[0];
  assert.equal(path, "/v1/responses");
  assert.equal(headers.authorization, "Bearer k1");
  assert.equal(body.store, false);
  assert.equal(body.stream, true);
  assert.equal(body.instructions, "Be brief.\n\nUse tools.");
  assert.deepEqual(body.input, [
    { type: "message", role: "user", content: "weather?" },
    { type: "message", role: "assistant", content: "Let me look." },
    { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}" },
    { type: "function_call_output", call_id: "c1", output: "sunny" },
  ]);
  assert.deepEqual(body.tools, [
    { type: "function", name: "get_weather", description: "Weather", parameters: { type: "object" } },
  ]);
});

Deno.test("responses client fails an incomplete response as truncated", async () => {
  const body = JSON.stringify({
    status: "incomplete",
    incomplete_details: { reason: "max_output_tokens" },
    output: [],
    usage: { input_tokens: 1, output_tokens: 1 },
  });
  await using server = startModelServer({ respond: () => ({ status: 200, body }) });
  const client = new OpenAiResponsesClient({ provider: "p", model: "m1", baseUrl: server.url });
  const error = await client.complete({ messages: [{ role: "user", content: "x" }], tools: [] }).catch((e) =>
    e
  );
  assert.ok(error instanceof ModelError);
  assert.equal(error.kind, "truncated");
});

Deno.test("responses client fails a function_call item without its call_id as malformed", async () => {
  const body = JSON.stringify({
    status: "completed",
    output: [{ type: "function_call", name: "f", arguments: "{}" }],
  });
  await using server = startModelServer({ respond: () => ({ status: 200, body }) });
  const client = new OpenAiResponsesClient({ provider: "p", model: "m1", baseUrl: server.url });
  const error = await client.complete({ messages: [{ role: "user", content: "x" }], tools: [] }).catch((e) =>
    e
  );
  assert.ok(error instanceof ModelError);
  assert.equal(error.kind, "malformed");
});
