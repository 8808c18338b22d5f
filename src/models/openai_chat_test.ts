import assert from "node:assert/strict";
import { ModelError } from "./errors.ts";
import { OpenAiChatClient } from "./openai_chat.ts";
import { startModelServer } from "./testing/mod.ts";
import type { ChatMessage } from "./types.ts";

const CONVERSATION: ChatMessage[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "weather?" },
  {
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c1", name: "get_weather", arguments: '{"city":"Paris"}' }],
  },
  { role: "tool", toolCallId: "c1", name: "get_weather", content: "sunny" },
];
const TOOL = { name: "get_weather", description: "Weather", inputSchema: { type: "object" } };

Deno.test("chat completions client sends tool calls, tool messages and function tools in the wire shape", async () => {
  await using server = startModelServer();
  const client = new OpenAiChatClient({
    provider: "p",
    model: "m1",
    baseUrl: `${server.url}/`,
    apiKey: "k1",
  });
  await client.complete({ messages: CONVERSATION, tools: [TOOL] });
  const { body, headers, path } = server.requests[0];
  assert.equal(path, "/v1/chat/completions");
  assert.equal(headers.authorization, "Bearer k1");
  assert.equal(body.model, "m1");
  assert.equal(body.stream, undefined);
  assert.deepEqual(body.messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "weather?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "c1",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris"}' },
      }],
    },
    { role: "tool", tool_call_id: "c1", content: "sunny" },
  ]);
  assert.deepEqual(body.tools, [{
    type: "function",
    function: { name: "get_weather", description: "Weather", parameters: { type: "object" } },
  }]);
});

Deno.test("chat completions client asks for usage when streaming and sends no auth header without a key", async () => {
  await using server = startModelServer({
    respond: () => ({ text: "hi", usage: { input_tokens: 3, output_tokens: 1 } }),
  });
  const client = new OpenAiChatClient({ provider: "p", model: "m1", baseUrl: server.url });
  const turn = await client.complete({ messages: [{ role: "user", content: "x" }], tools: [], stream: true });
  assert.deepEqual(turn.usage, { input_tokens: 3, output_tokens: 1 });
  const { body, headers } = server.requests[0];
  assert.equal(body.stream, true);
  assert.deepEqual(body.stream_options, { include_usage: true });
  assert.equal(body.tools, undefined);
  assert.equal(headers.authorization, undefined);
});

Deno.test("chat completions client fails an answer cut by its length limit as truncated", async () => {
  const body = JSON.stringify({
    choices: [{ message: { role: "assistant", content: "half an ans" }, finish_reason: "length" }],
  });
  await using server = startModelServer({ respond: () => ({ status: 200, body }) });
  const client = new OpenAiChatClient({ provider: "p", model: "m1", baseUrl: server.url });
  const error = await client.complete({ messages: [{ role: "user", content: "x" }], tools: [] }).catch((e) =>
    e
  );
  assert.ok(error instanceof ModelError);
  assert.equal(error.kind, "truncated");
});

Deno.test("chat completions client fails a stream that reports an error", async () => {
  const body =
    'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: {"error":{"message":"boom"}}\n\n';
  await using server = startModelServer({ respond: () => ({ status: 200, body }) });
  const client = new OpenAiChatClient({ provider: "p", model: "m1", baseUrl: server.url });
  const error = await client.complete({ messages: [{ role: "user", content: "x" }], tools: [], stream: true })
    .catch((e) => e);
  assert.ok(error instanceof ModelError);
  assert.equal(error.kind, "http");
  assert.equal(error.message.includes("boom"), false);
});
