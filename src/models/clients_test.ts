import assert from "node:assert/strict";
import { CLIENT_KINDS } from "./_test_clients.ts";
import { ModelError } from "./errors.ts";
import { type ScriptedReply, startModelServer } from "./testing/mod.ts";
import type { ChatMessage, ModelAttempt, ToolSpec } from "./types.ts";

const TOOLS: ToolSpec[] = [
  { name: "get_weather", description: "Weather of a city", inputSchema: { type: "object" } },
  { name: "get_time", description: "Time in a city", inputSchema: { type: "object" } },
];
const LONG_TEXT = "The weather in Paris is mild today, with light wind from the west and some sun.";

function scripted(...replies: ScriptedReply[]): () => ScriptedReply {
  let next = 0;
  return () => replies[Math.min(next++, replies.length - 1)];
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(() => undefined, (error: unknown) => error);
  assert.ok(error instanceof ModelError, `expected a ModelError, got ${error}`);
  return error;
}

const ask: ChatMessage[] = [{ role: "system", content: "Be brief." }, { role: "user", content: "weather?" }];

for (const kind of CLIENT_KINDS) {
  for (const stream of [false, true]) {
    const mode = stream ? "streamed" : "not streamed";

    Deno.test(`${kind.name} (${mode}) returns the text and the usage of a plain answer`, async () => {
      await using server = startModelServer({
        respond: () => ({ text: LONG_TEXT, usage: { input_tokens: 11, output_tokens: 7 } }),
      });
      const deltas: string[] = [];
      const turn = await kind.make(server).complete({
        messages: ask,
        tools: [],
        stream,
        onText: (delta) => deltas.push(delta),
      });
      assert.deepEqual(turn, {
        text: LONG_TEXT,
        toolCalls: [],
        usage: { input_tokens: 11, output_tokens: 7 },
        stopReason: "stop",
      });
      if (stream) {
        assert.ok(deltas.length > 1);
        assert.equal(deltas.join(""), LONG_TEXT);
      } else assert.deepEqual(deltas, []);
      assert.equal(server.requests[0].api, kind.api);
      assert.equal(server.requests[0].stream, stream);
      assert.deepEqual(server.requests[0].messages, ask);
    });

    Deno.test(`${kind.name} (${mode}) returns several parallel tool calls with their arguments`, async () => {
      await using server = startModelServer({
        respond: () => ({
          toolCalls: [
            {
              name: "get_weather",
              arguments: { city: "Paris", days: [1, 2, 3], note: "a long enough value" },
            },
            { name: "get_time", arguments: { city: "Oslo" } },
          ],
        }),
      });
      const turn = await kind.make(server).complete({ messages: ask, tools: TOOLS, stream });
      assert.equal(turn.stopReason, "tool_calls");
      assert.equal(turn.text, "");
      assert.deepEqual(turn.toolCalls.map((call) => [call.name, JSON.parse(call.arguments)]), [
        ["get_weather", { city: "Paris", days: [1, 2, 3], note: "a long enough value" }],
        ["get_time", { city: "Oslo" }],
      ]);
      assert.equal(new Set(turn.toolCalls.map((call) => call.id)).size, 2);
      assert.ok(turn.usage.output_tokens > 0 && turn.usage.input_tokens > 0);
      assert.deepEqual(server.requests[0].tools, ["get_weather", "get_time"]);
    });

    Deno.test(`${kind.name} (${mode}) sends tool results back and reads the final answer`, async () => {
      await using server = startModelServer();
      const client = kind.make(server);
      const first = await client.complete({
        messages: [{
          role: "user",
          content: 'call get_weather {"city":"Paris"}\ncall get_time {"city":"Oslo"}',
        }],
        tools: TOOLS,
        stream,
      });
      assert.equal(first.toolCalls.length, 2);
      const conversation: ChatMessage[] = [
        { role: "system", content: "Be brief." },
        { role: "user", content: 'call get_weather {"city":"Paris"}\ncall get_time {"city":"Oslo"}' },
        { role: "assistant", content: "", toolCalls: first.toolCalls },
        { role: "tool", toolCallId: first.toolCalls[0].id, name: "get_weather", content: "sunny" },
        { role: "tool", toolCallId: first.toolCalls[1].id, name: "get_time", content: "12:00" },
      ];
      const second = await client.complete({ messages: conversation, tools: TOOLS, stream });
      assert.equal(second.text, "Tool results:\n- get_weather: sunny\n- get_time: 12:00");
      assert.equal(second.stopReason, "stop");
      assert.deepEqual(server.requests[1].messages, conversation);
    });

    Deno.test(`${kind.name} (${mode}) fails a truncated answer`, async () => {
      await using server = startModelServer({ respond: () => ({ truncate: true, text: LONG_TEXT }) });
      const error = await failure(kind.make(server).complete({ messages: ask, tools: [], stream }));
      // A stream without its final event is "truncated"; a JSON body cut in the middle is "malformed".
      assert.equal(error.kind, stream ? "truncated" : "malformed");
      assert.equal(server.requests.length, 1);
    });

    Deno.test(`${kind.name} (${mode}) aborts a slow answer at once and leaves nothing open`, async () => {
      await using server = startModelServer(stream ? { chunkDelayMs: 10_000 } : { delayMs: 10_000 });
      const controller = new AbortController();
      const deltas: string[] = [];
      const started = performance.now();
      const call = kind.make(server).complete({
        messages: ask,
        tools: [],
        stream,
        signal: controller.signal,
        onText: (delta) => deltas.push(delta),
      });
      setTimeout(() => controller.abort(), 50);
      const error = await failure(call);
      assert.equal(error.kind, "aborted");
      assert.ok(performance.now() - started < 2_000);
    });
  }

  Deno.test(`${kind.name} retries a 429 after its retry-after-ms and reports the attempt`, async () => {
    await using server = startModelServer({
      respond: scripted({ status: 429, headers: { "retry-after-ms": "30" } }, { text: "ok" }),
    });
    const attempts: ModelAttempt[] = [];
    const turn = await kind.make(server).complete({
      messages: ask,
      tools: [],
      onRetry: (attempt) => attempts.push(attempt),
    });
    assert.equal(turn.text, "ok");
    assert.deepEqual(attempts, [{ attempt: 1, status: 429, delay_ms: 30, reason: "http 429" }]);
    assert.equal(server.requests.length, 2);
  });

  Deno.test(`${kind.name} retries a 503 with backoff and fails with its status when retries run out`, async () => {
    await using server = startModelServer({
      respond: () => ({ status: 503, body: "provider says: overloaded" }),
    });
    const attempts: ModelAttempt[] = [];
    const client = kind.make(server, { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 100 });
    const error = await failure(
      client.complete({ messages: ask, tools: [], onRetry: (attempt) => attempts.push(attempt) }),
    );
    assert.equal(error.kind, "http");
    assert.equal(error.status, 503);
    assert.equal(error.message.includes("overloaded"), false);
    assert.equal(error.detail, "provider says: overloaded");
    assert.deepEqual(attempts.map((attempt) => [attempt.attempt, attempt.delay_ms]), [[1, 5], [2, 10]]);
    assert.equal(server.requests.length, 3);
  });

  Deno.test(`${kind.name} does not retry a 400 and keeps the provider's text out of the message`, async () => {
    await using server = startModelServer({
      respond: () => ({ status: 400, body: '{"error":"bad key sk-123"}' }),
    });
    const error = await failure(
      kind.make(server).complete({ messages: ask, tools: [], onRetry: () => assert.fail() }),
    );
    assert.equal(error.kind, "http");
    assert.equal(error.status, 400);
    assert.equal(error.message.includes("sk-123"), false);
    assert.equal(server.requests.length, 1);
  });

  Deno.test(`${kind.name} fails a body that is not JSON or lacks its fields as malformed`, async () => {
    for (const body of ["<html>oops</html>", '{"unexpected":true}']) {
      await using server = startModelServer({ respond: () => ({ status: 200, body }) });
      const error = await failure(kind.make(server).complete({ messages: ask, tools: [] }));
      assert.equal(error.kind, "malformed");
    }
  });

  Deno.test(`${kind.name} retries network errors and then fails with kind network`, async () => {
    const server = startModelServer();
    const client = kind.make(server, { maxRetries: 1, baseDelayMs: 1 });
    await server.close();
    const attempts: ModelAttempt[] = [];
    const error = await failure(
      client.complete({ messages: ask, tools: [], onRetry: (attempt) => attempts.push(attempt) }),
    );
    assert.equal(error.kind, "network");
    assert.deepEqual(attempts, [{ attempt: 1, status: null, delay_ms: 1, reason: "network" }]);
  });

  Deno.test(`${kind.name} stops waiting for a retry when aborted`, async () => {
    await using server = startModelServer({
      respond: () => ({ status: 503, headers: { "retry-after": "10" } }),
    });
    const controller = new AbortController();
    const client = kind.make(server, { maxDelayMs: 60_000 });
    const call = client.complete({
      messages: ask,
      tools: [],
      signal: controller.signal,
      onRetry: (attempt) => {
        assert.equal(attempt.delay_ms, 10_000);
        controller.abort();
      },
    });
    assert.equal((await failure(call)).kind, "aborted");
    assert.equal(server.requests.length, 1);
  });
}
