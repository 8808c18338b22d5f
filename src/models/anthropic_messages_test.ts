import assert from "node:assert/strict";
import { ANTHROPIC_VERSION, AnthropicMessagesClient } from "./anthropic_messages.ts";
import { ModelError } from "./errors.ts";
import { startModelServer } from "./testing/mod.ts";
import type { ChatMessage } from "./types.ts";

const CONVERSATION: ChatMessage[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "weather and time?" },
  {
    role: "assistant",
    content: "Looking.",
    toolCalls: [
      { id: "t1", name: "get_weather", arguments: '{"city":"Paris"}' },
      { id: "t2", name: "get_time", arguments: "" },
    ],
  },
  { role: "tool", toolCallId: "t1", name: "get_weather", content: "sunny" },
  { role: "tool", toolCallId: "t2", name: "get_time", content: "no clock", isError: true },
];

function baseUrl(url: string): string {
  return url.replace(/\/v1$/, "");
}

Deno.test("anthropic client sends system, tool_use and one user message of tool_result blocks", async () => {
  await using server = startModelServer();
  const client = new AnthropicMessagesClient({
    provider: "p",
    model: "m1",
    baseUrl: baseUrl(server.url),
    apiKey: "k1",
  });
  const turn = await client.complete({ messages: CONVERSATION, tools: [] });
  assert.equal(turn.text, "Tool results:\n- get_weather: sunny\n- get_time (error): no clock");
  const { body, headers, path } = server.requests[0];
  assert.equal(path, "/v1/messages");
  assert.equal(headers["x-api-key"], "k1");
  assert.equal(headers["anthropic-version"], ANTHROPIC_VERSION);
  assert.equal(headers.authorization, undefined);
  assert.equal(body.max_tokens, 4096);
  assert.equal(body.system, "Be brief.");
  assert.deepEqual(body.messages, [
    { role: "user", content: "weather and time?" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Looking." },
        { type: "tool_use", id: "t1", name: "get_weather", input: { city: "Paris" } },
        { type: "tool_use", id: "t2", name: "get_time", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "sunny" },
        { type: "tool_result", tool_use_id: "t2", content: "no clock", is_error: true },
      ],
    },
  ]);
});

Deno.test("anthropic client sends its tools with input_schema and the max_tokens it was given", async () => {
  await using server = startModelServer();
  const client = new AnthropicMessagesClient({
    provider: "p",
    model: "m1",
    baseUrl: baseUrl(server.url),
    maxTokens: 99,
  });
  const tool = { name: "get_weather", description: "Weather", inputSchema: { type: "object" } };
  await client.complete({ messages: [{ role: "user", content: "x" }], tools: [tool], stream: true });
  const { body } = server.requests[0];
  assert.equal(body.max_tokens, 99);
  assert.equal(body.stream, true);
  assert.deepEqual(body.tools, [{
    name: "get_weather",
    description: "Weather",
    input_schema: { type: "object" },
  }]);
});

Deno.test("anthropic client fails an answer stopped at max_tokens as truncated", async () => {
  const body = JSON.stringify({
    content: [{ type: "text", text: "cut" }],
    stop_reason: "max_tokens",
    usage: {},
  });
  await using server = startModelServer({ respond: () => ({ status: 200, body }) });
  const client = new AnthropicMessagesClient({ provider: "p", model: "m1", baseUrl: baseUrl(server.url) });
  const error = await client.complete({ messages: [{ role: "user", content: "x" }], tools: [] }).catch((e) =>
    e
  );
  assert.ok(error instanceof ModelError);
  assert.equal(error.kind, "truncated");
});

Deno.test("anthropic client fails a stream that reports an overloaded error", async () => {
  const body =
    'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1}}}\n\n' +
    'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
  await using server = startModelServer({ respond: () => ({ status: 200, body }) });
  const client = new AnthropicMessagesClient({ provider: "p", model: "m1", baseUrl: baseUrl(server.url) });
  const error = await client.complete({ messages: [{ role: "user", content: "x" }], tools: [], stream: true })
    .catch((e) => e);
  assert.ok(error instanceof ModelError);
  assert.equal(error.kind, "http");
  assert.equal(error.detail?.includes("Overloaded"), true);
  assert.equal(error.message.includes("Overloaded"), false);
});
