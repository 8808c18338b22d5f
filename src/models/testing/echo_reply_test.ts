import assert from "node:assert/strict";
import type { ChatMessage } from "../types.ts";
import { echoReply } from "./echo_reply.ts";
import type { RecordedRequest } from "./model_server.ts";

function request(messages: ChatMessage[], tools: string[] = []): RecordedRequest {
  return { api: "chat", path: "/v1/chat/completions", headers: {}, body: {}, messages, tools, stream: false };
}

Deno.test("echo model echoes the first 200 characters of the last user message", () => {
  const long = "x".repeat(300);
  assert.deepEqual(
    echoReply(request([{ role: "user", content: "first" }, { role: "user", content: long }])),
    {
      text: `Echo: ${"x".repeat(200)}`,
    },
  );
  assert.deepEqual(echoReply(request([{ role: "system", content: "s" }])), { text: "Echo: " });
});

Deno.test("echo model calls each offered tool named on a call line, with JSON or empty arguments", () => {
  const content = 'Please:\ncall get_weather {"city": "Paris"}\n  call get_time\ncall ping not json';
  assert.deepEqual(echoReply(request([{ role: "user", content }], ["get_weather", "get_time", "ping"])), {
    toolCalls: [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_time", arguments: {} },
      { name: "ping", arguments: "not json" },
    ],
  });
});

Deno.test("echo model does not call tools that are not offered", () => {
  const messages: ChatMessage[] = [{ role: "user", content: "call get_weather {}" }];
  assert.deepEqual(echoReply(request(messages)), { text: "Echo: call get_weather {}" });
  assert.deepEqual(echoReply(request(messages, ["get_time"])), {
    text: "No tool named get_weather is offered; offered tools: get_time",
  });
});

Deno.test("echo model summarises the tool results that follow the last user message", () => {
  const messages: ChatMessage[] = [
    { role: "user", content: "call get_weather {}" },
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "get_weather", arguments: "{}" }] },
    { role: "tool", toolCallId: "c1", name: "get_weather", content: "sunny" },
    { role: "tool", toolCallId: "c2", name: "", content: "failed", isError: true },
  ];
  assert.deepEqual(echoReply(request(messages, ["get_weather"])), {
    text: "Tool results:\n- get_weather: sunny\n- c2 (error): failed",
  });
  const next = [...messages, { role: "assistant" as const, content: "done" }, {
    role: "user" as const,
    content: "thanks",
  }];
  assert.deepEqual(echoReply(request(next, ["get_weather"])), { text: "Echo: thanks" });
});

Deno.test("the echo model answers the operator questions of the inbox's block", () => {
  const block = "=== OPERATOR MESSAGES ===\n\n[HIGH QUESTION] Q1 (from: ops, just now, expires in 3 min)\n" +
    'How many orders wait?\nAnswer in your final reply with a line starting "ANSWER Q1:".\n\n' +
    "[QUESTION] Q2 (just now, no expiry)\nWho is on call?\n\n=== END OPERATOR MESSAGES ===";
  const reply = echoReply(request([{ role: "system", content: block }, { role: "user", content: "tick" }]));
  assert.deepEqual(reply, {
    text: 'Echo: tick\nANSWER Q1: you asked "How many orders wait?"; the echo model can only repeat it.\n' +
      'ANSWER Q2: you asked "Who is on call?"; the echo model can only repeat it.',
  });
});
