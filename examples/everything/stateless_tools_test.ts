import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createTestClient, createToolServer } from "../../src/mcp/mod.ts";
import { LOGGING_TOOL_LOGGER, statelessTools } from "./stateless_tools.ts";

function server() {
  return createToolServer({ name: "stateless-tools", settings: {} }).include(statelessTools());
}

function text(value: string) {
  return [{ type: "text", text: value }];
}

Deno.test("test_missing_capability asks the client's model when the client declared sampling", async () => {
  await using client = await createTestClient(server(), { capabilities: { sampling: {} } });
  let asked = 0;
  client.client.setRequestHandler(CreateMessageRequestSchema, () => {
    asked++;
    return { role: "assistant", content: { type: "text", text: "ready" }, model: "test-model" };
  });
  const result = await client.callTool("test_missing_capability");
  assert.equal(asked, 1);
  assert.deepEqual(result.content, text("Sampling answered: ready"));
});

Deno.test("test_missing_capability is refused, without running to the end, when sampling was not declared", async () => {
  await using client = await createTestClient(server());
  const outcome = await client.callTool("test_missing_capability").then(
    (result) => result,
    (error: Error) => error,
  );
  // 2025 sessions: the SDK refuses the request to the client; the call never answers "Sampling answered".
  if (outcome instanceof Error) assert.match(outcome.message, /sampling/i);
  else {
    assert.equal(outcome.isError, true);
    assert.doesNotMatch(JSON.stringify(outcome.content), /Sampling answered/);
  }
});

Deno.test("test_streaming_elicitation asks for a confirmation and reports the answer", async () => {
  await using client = await createTestClient(server(), { capabilities: { elicitation: {} } });
  const messages: string[] = [];
  client.client.setRequestHandler(ElicitRequestSchema, (request) => {
    messages.push(request.params.message);
    return { action: "accept", content: { confirm: true } };
  });
  const result = await client.callTool("test_streaming_elicitation");
  assert.deepEqual(messages, ["Continue the streaming test?"]);
  assert.deepEqual(result.content, text('Streaming elicitation: action=accept, content={"confirm":true}'));
});

Deno.test("test_logging_tool logs three info messages when a level was set, none above info", async () => {
  await using client = await createTestClient(server());
  const messages: LoggingMessageNotification["params"][] = [];
  client.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    messages.push(n.params);
  });
  await client.client.setLoggingLevel("info");
  assert.deepEqual((await client.callTool("test_logging_tool")).content, text("Logging tool finished"));
  assert.deepEqual(messages, [
    { level: "info", logger: LOGGING_TOOL_LOGGER, data: "Logging tool started" },
    { level: "info", logger: LOGGING_TOOL_LOGGER, data: "Logging tool working" },
    { level: "info", logger: LOGGING_TOOL_LOGGER, data: "Logging tool done" },
  ]);
  await client.client.setLoggingLevel("error");
  await client.callTool("test_logging_tool");
  assert.equal(messages.length, 3);
});

// The same tools on a 2026-07-28 client (SDK v2, stateless): what server-stateless checks around them.

Deno.test("2026-07-28: test_missing_capability is refused with -32021 naming sampling when it was not declared", async () => {
  await using client = await createTestClient(server(), { revision: "2026-07-28" });
  const error = await client.callTool("test_missing_capability").then(
    (result) => assert.fail(`expected a protocol error, got ${JSON.stringify(result)}`),
    (error: { code?: number; data?: { requiredCapabilities?: unknown } }) => error,
  );
  assert.equal(error.code, -32021);
  assert.deepEqual(error.data?.requiredCapabilities, { sampling: {} });
});

Deno.test("2026-07-28: test_missing_capability and test_streaming_elicitation answer through input rounds", async () => {
  const asked: string[] = [];
  await using client = await createTestClient(server(), {
    revision: "2026-07-28",
    onSample: () => ({ role: "assistant", content: { type: "text", text: "ready" }, model: "test-model" }),
    onElicit: (params) => {
      asked.push(params.message);
      return { action: "accept", content: { confirm: false } };
    },
  });
  assert.deepEqual(
    (await client.callTool("test_missing_capability")).content,
    text("Sampling answered: ready"),
  );
  assert.deepEqual(
    (await client.callTool("test_streaming_elicitation")).content,
    text('Streaming elicitation: action=accept, content={"confirm":false}'),
  );
  assert.deepEqual(asked, ["Continue the streaming test?"]);
});
