import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolResultSchema,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type Progress,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createTestClient, type TestClient, ToolError } from "../src/mcp/mod.ts";
import buildServer, { WATCHED_UPDATE_MS, WATCHED_URI } from "./everything_server.ts";
import { JSON_SCHEMA_2020_12_INPUT } from "./everything/content_tools.ts";
import { PNG_BASE64, WAV_BASE64 } from "./everything/media.ts";
import { SEP1034_FORM, SEP1330_FORM } from "./everything/session_tools.ts";

/** Any result, unparsed beyond "is an object", to compare raw answers exactly. */
const RAW_RESULT = z.looseObject({});

function connect(): Promise<TestClient> {
  return createTestClient(buildServer(), { capabilities: { sampling: {}, elicitation: {} } });
}

/** Answers every elicitation with `answer` and keeps the (SDK-parsed) requests the client saw. */
function answerElicitations(client: TestClient, answer: ElicitResult): ElicitRequest["params"][] {
  const seen: ElicitRequest["params"][] = [];
  client.client.setRequestHandler(ElicitRequestSchema, (request) => {
    seen.push(request.params);
    return answer;
  });
  return seen;
}

function text(value: string) {
  return { type: "text", text: value };
}

Deno.test("everything server lists every conformance tool with a description and an object schema", async () => {
  await using client = await connect();
  const tools = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), [
    "confirm_delete",
    "failing_job",
    "greet",
    "json_schema_2020_12_tool",
    "multi_input",
    "protocol_error_job",
    "slow_compute",
    "test_audio_content",
    "test_custom_headers",
    "test_elicitation",
    "test_elicitation_sep1034_defaults",
    "test_elicitation_sep1330_enums",
    "test_embedded_resource",
    "test_error_handling",
    "test_image_content",
    "test_input_required_result_capabilities",
    "test_input_required_result_elicitation",
    "test_input_required_result_list_roots",
    "test_input_required_result_multi_round",
    "test_input_required_result_multiple_inputs",
    "test_input_required_result_request_state",
    "test_input_required_result_sampling",
    "test_input_required_result_tampered_state",
    "test_logging_tool",
    "test_missing_capability",
    "test_multiple_content_types",
    "test_reconnection",
    "test_sampling",
    "test_simple_text",
    "test_streaming_elicitation",
    "test_tool_with_logging",
    "test_tool_with_progress",
    "test_tool_with_task",
    "test_trigger_prompt_change",
    "test_trigger_tool_change",
  ]);
  for (const tool of tools) {
    assert.ok(tool.description, `${tool.name} has a description`);
    assert.equal(tool.inputSchema.type, "object");
    for (const property of Object.values(tool.inputSchema.properties ?? {})) {
      assert.equal(typeof property, "object");
    }
    assert.equal(tool.outputSchema, undefined);
  }
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  assert.deepEqual(byName.get("test_simple_text")!.inputSchema, { type: "object", properties: {} });
  assert.deepEqual(byName.get("test_sampling")!.inputSchema.required, ["prompt"]);
  assert.deepEqual(byName.get("test_elicitation")!.inputSchema.required, ["message"]);
});

Deno.test("json_schema_2020_12_tool advertises its 2020-12 schema verbatim", async () => {
  await using client = await connect();
  const tool = (await client.listTools()).find((t) => t.name === "json_schema_2020_12_tool");
  assert.equal(tool?.description, "Tool with JSON Schema 2020-12 features");
  const schema = tool?.inputSchema as Record<string, unknown> | undefined;
  assert.equal(schema?.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.equal(schema?.additionalProperties, false);
  assert.deepEqual(Object.keys(schema?.$defs ?? {}), ["address"]);
  assert.equal((schema?.$defs as { address: { $anchor: string } }).address.$anchor, "addressDef");
  assert.ok(Array.isArray(schema?.allOf) && "anyOf" in schema.allOf[0]);
  assert.ok(schema && "if" in schema && "then" in schema && "else" in schema);
  assert.deepEqual(tool?.inputSchema, JSON_SCHEMA_2020_12_INPUT);
  const result = await client.callTool("json_schema_2020_12_tool", {
    name: "Ada",
    address: { city: "London" },
    email: "ada@example.com",
  });
  assert.equal(result.isError, undefined);
  for (
    const refusedArgs of [
      { nickname: "Ada", email: "ada@example.com" }, // additionalProperties: false
      { name: "Ada" }, // allOf/anyOf: phone or email
      { contactMethod: "phone", email: "ada@example.com" }, // if/then: phone is required
    ]
  ) {
    const refused = await client.callTool("json_schema_2020_12_tool", refusedArgs);
    assert.equal(refused.isError, true, JSON.stringify(refusedArgs));
  }
});

Deno.test("test_simple_text answers a call that has no arguments key", async () => {
  await using client = await connect();
  const result = await client.client.request(
    { method: "tools/call", params: { name: "test_simple_text" } },
    CallToolResultSchema,
  );
  assert.deepEqual(result.content, [text("This is a simple text response for testing.")]);
});

Deno.test("content tools answer with image, audio, embedded resource and mixed content", async () => {
  await using client = await connect();
  const image = { type: "image", data: PNG_BASE64, mimeType: "image/png" };
  assert.deepEqual((await client.callTool("test_image_content")).content, [image]);
  assert.deepEqual((await client.callTool("test_audio_content")).content, [
    { type: "audio", data: WAV_BASE64, mimeType: "audio/wav" },
  ]);
  assert.deepEqual((await client.callTool("test_embedded_resource")).content, [{
    type: "resource",
    resource: {
      uri: "test://embedded-resource",
      mimeType: "text/plain",
      text: "This is an embedded resource content.",
    },
  }]);
  assert.deepEqual((await client.callTool("test_multiple_content_types")).content, [
    text("Multiple content types test:"),
    image,
    {
      type: "resource",
      resource: {
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: '{"test":"data","value":123}',
      },
    },
  ]);
  assert.deepEqual((await client.callTool("test_reconnection")).content, [
    text("Reconnection test completed successfully"),
  ]);
});

Deno.test("test_error_handling answers with an isError result rather than a protocol error", async () => {
  await using client = await connect();
  const result = await client.callTool("test_error_handling");
  assert.equal(result.isError, true);
  const first = result.content[0];
  assert.equal(first.type, "text");
  assert.deepEqual(JSON.parse(first.type === "text" ? first.text : ""), {
    error: {
      code: "INTENTIONAL_ERROR",
      message: "This tool intentionally returns an error for testing",
      retryable: false,
    },
  });
});

Deno.test("test_tool_with_logging sends three info messages before its result", async () => {
  await using client = await connect();
  const messages: LoggingMessageNotification["params"][] = [];
  client.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    messages.push(n.params);
  });
  assert.deepEqual(
    await client.client.request({ method: "logging/setLevel", params: { level: "debug" } }, RAW_RESULT),
    {},
  );
  const result = await client.callTool("test_tool_with_logging");
  const seenBeforeResult = messages.length;
  assert.deepEqual(result.content, [text("Tool with logging executed successfully")]);
  assert.equal(seenBeforeResult, 3);
  assert.deepEqual(messages, [
    { level: "info", logger: "conformance-test-server", data: "Tool execution started" },
    { level: "info", logger: "conformance-test-server", data: "Tool processing data" },
    { level: "info", logger: "conformance-test-server", data: "Tool execution completed" },
  ]);
});

Deno.test("test_tool_with_logging sends nothing when the session's level is above info", async () => {
  await using client = await connect();
  let count = 0;
  client.client.setNotificationHandler(LoggingMessageNotificationSchema, () => {
    count += 1;
  });
  await client.client.setLoggingLevel("warning");
  await client.callTool("test_tool_with_logging");
  assert.equal(count, 0);
});

Deno.test("test_tool_with_progress reports 0, 50 and 100 of 100 before its result", async () => {
  await using client = await connect();
  const reports: Progress[] = [];
  // With `onprogress` the SDK replaces the token with the request id and routes notifications by
  // it, so receiving them here proves the server echoed the token unchanged.
  const result = await client.client.request(
    {
      method: "tools/call",
      params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "progress-test-1" } },
    },
    CallToolResultSchema,
    { onprogress: (progress) => reports.push(progress) },
  );
  assert.deepEqual(reports.map(({ progress, total }) => ({ progress, total })), [
    { progress: 0, total: 100 },
    { progress: 50, total: 100 },
    { progress: 100, total: 100 },
  ]);
  assert.deepEqual(result.content, [text("Tool with progress executed successfully")]);
});

Deno.test("test_tool_with_progress stops at once when the client cancels the call", async () => {
  const server = buildServer();
  const outcomes: unknown[] = [];
  server.use(async (_ctx, next) => {
    try {
      const value = await next();
      outcomes.push(value);
      return value;
    } catch (error) {
      outcomes.push(error instanceof ToolError ? error.code : error);
      throw error;
    }
  });
  await using client = await createTestClient(server);
  const reports: Progress[] = [];
  const controller = new AbortController();
  const call = client.client.request(
    { method: "tools/call", params: { name: "test_tool_with_progress", arguments: {} } },
    CallToolResultSchema,
    {
      signal: controller.signal,
      onprogress: (progress) => {
        reports.push(progress);
        controller.abort();
      },
    },
  );
  await assert.rejects(call);
  for (let i = 0; i < 100 && outcomes.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.deepEqual(outcomes, ["CANCELLED"]);
  assert.equal(reports.length, 1);
});

Deno.test("test_sampling asks the client's model and answers with its reply", async () => {
  await using client = await connect();
  const seen: CreateMessageRequest["params"][] = [];
  client.client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    seen.push(request.params);
    return {
      role: "assistant",
      content: { type: "text", text: "This is a test response from the client" },
      model: "test-model",
      stopReason: "endTurn",
    };
  });
  const result = await client.callTool("test_sampling", { prompt: "Test prompt for sampling" });
  assert.deepEqual(seen, [{
    messages: [{ role: "user", content: { type: "text", text: "Test prompt for sampling" } }],
    maxTokens: 100,
  }]);
  assert.deepEqual(result.content, [text("LLM response: This is a test response from the client")]);
});

Deno.test("test_elicitation asks for username and email and reports the answer", async () => {
  await using client = await connect();
  const seen = answerElicitations(client, {
    action: "accept",
    content: { username: "testuser", email: "test@example.com" },
  });
  const result = await client.callTool("test_elicitation", { message: "Please provide your information" });
  assert.deepEqual(seen, [{
    message: "Please provide your information",
    requestedSchema: {
      type: "object",
      properties: {
        username: { type: "string", description: "User's response" },
        email: { type: "string", description: "User's email address" },
      },
      required: ["username", "email"],
    },
  }]);
  assert.deepEqual(result.content, [
    text('User response: action=accept, content={"username":"testuser","email":"test@example.com"}'),
  ]);
});

Deno.test("test_elicitation_sep1034_defaults sends a default for every field type", async () => {
  await using client = await connect();
  const content = { name: "Jane Smith", age: 25, score: 88, status: "inactive", verified: false };
  const seen = answerElicitations(client, { action: "accept", content });
  const result = await client.callTool("test_elicitation_sep1034_defaults");
  assert.equal(result.isError, undefined);
  assert.deepEqual(seen, [SEP1034_FORM]);
  const properties = "requestedSchema" in seen[0] ? seen[0].requestedSchema.properties : {};
  assert.deepEqual(properties.name, { type: "string", description: "User name", default: "John Doe" });
  assert.deepEqual(properties.age, { type: "integer", description: "User age", default: 30 });
  assert.deepEqual(properties.score, { type: "number", description: "User score", default: 95.5 });
  assert.deepEqual(properties.verified, {
    type: "boolean",
    description: "Verification status",
    default: true,
  });
  assert.deepEqual(properties.status, {
    type: "string",
    description: "User status",
    enum: ["active", "inactive", "pending"],
    default: "active",
  });
  assert.deepEqual(result.content, [
    text(`Elicitation completed: action=accept, content=${JSON.stringify(content)}`),
  ]);
});

Deno.test("test_elicitation_sep1330_enums sends each enum shape intact through the client's parsing", async () => {
  await using client = await connect();
  const seen = answerElicitations(client, {
    action: "accept",
    content: {
      untitledSingle: "option1",
      titledSingle: "value1",
      legacyEnum: "opt1",
      untitledMulti: ["option1", "option2"],
      titledMulti: ["value1", "value2"],
    },
  });
  const result = await client.callTool("test_elicitation_sep1330_enums");
  assert.equal(result.isError, undefined);
  assert.equal(seen.length, 1);
  // The SDK client strips unknown keys while parsing: every shape must survive unchanged.
  assert.deepEqual(seen[0], SEP1330_FORM);
  const properties = "requestedSchema" in seen[0] ? seen[0].requestedSchema.properties : {};
  assert.deepEqual(Object.keys(properties), [
    "untitledSingle",
    "titledSingle",
    "legacyEnum",
    "untitledMulti",
    "titledMulti",
  ]);
  assert.ok(!("oneOf" in properties.untitledSingle) && !("enumNames" in properties.untitledSingle));
  assert.ok(!("enum" in properties.titledSingle));
  assert.equal((properties.legacyEnum as { enumNames: string[] }).enumNames.length, 3);
  assert.ok(!("anyOf" in (properties.untitledMulti as { items: object }).items));
  assert.ok(!("enum" in (properties.titledMulti as { items: object }).items));
});

Deno.test("everything server lists and reads its resources and template", async () => {
  await using client = await connect();
  assert.deepEqual(await client.listResources(), [
    {
      uri: "test://static-text",
      name: "static-text",
      description: "A static text resource for testing",
      mimeType: "text/plain",
    },
    {
      uri: "test://static-binary",
      name: "static-binary",
      description: "A static binary resource (image) for testing",
      mimeType: "image/png",
    },
    {
      uri: WATCHED_URI,
      name: "watched-resource",
      description: "A resource that auto-updates",
      mimeType: "text/plain",
    },
  ]);
  assert.deepEqual(await client.listResourceTemplates(), [{
    uriTemplate: "test://template/{id}/data",
    name: "template",
    description: "A resource template with parameter substitution",
    mimeType: "application/json",
  }]);
  assert.deepEqual(await client.readResource("test://static-text"), {
    contents: [{
      uri: "test://static-text",
      mimeType: "text/plain",
      text: "This is the content of the static text resource.",
    }],
  });
  assert.deepEqual(await client.readResource("test://static-binary"), {
    contents: [{ uri: "test://static-binary", mimeType: "image/png", blob: PNG_BASE64 }],
  });
  assert.deepEqual(await client.readResource("test://template/123/data"), {
    contents: [{
      uri: "test://template/123/data",
      mimeType: "application/json",
      text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
    }],
  });
});

Deno.test("ping, setLevel, subscribe and unsubscribe answer exactly {}", async () => {
  await using client = await connect();
  const raw = (method: string, params?: Record<string, unknown>) =>
    client.client.request(params ? { method, params } : { method }, RAW_RESULT);
  assert.deepEqual(await raw("ping"), {});
  assert.deepEqual(await raw("logging/setLevel", { level: "info" }), {});
  assert.deepEqual(await raw("resources/subscribe", { uri: WATCHED_URI }), {});
  assert.deepEqual(await raw("resources/unsubscribe", { uri: WATCHED_URI }), {});
});

Deno.test("the watched resource notifies subscribers when it changes while serving", async () => {
  const clock = FakeTimers.withGlobal(globalThis).install({ toFake: ["setInterval", "clearInterval"] });
  const server = buildServer();
  try {
    await using client = await createTestClient(server);
    const updates: string[] = [];
    client.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await server.startup();
    await clock.tickAsync(WATCHED_UPDATE_MS);
    assert.deepEqual(updates, [], "no update before subscribing");
    await client.client.subscribeResource({ uri: WATCHED_URI });
    await clock.tickAsync(WATCHED_UPDATE_MS);
    assert.deepEqual(updates, [WATCHED_URI]);
    const read = await client.readResource(WATCHED_URI);
    assert.deepEqual(read.contents, [{
      uri: WATCHED_URI,
      mimeType: "text/plain",
      text: "Watched resource content, revision 2",
    }]);
    await client.client.unsubscribeResource({ uri: WATCHED_URI });
    await clock.tickAsync(WATCHED_UPDATE_MS);
    assert.deepEqual(updates, [WATCHED_URI]);
  } finally {
    await server.shutdown();
    assert.equal(clock.countTimers(), 0);
    clock.uninstall();
  }
});

Deno.test("completion of arg1 offers the suggestions that start with the typed value", async () => {
  await using client = await connect();
  const result = await client.client.complete({
    ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
    argument: { name: "arg1", value: "test" },
  });
  assert.deepEqual(result.completion, {
    values: ["test", "testing", "testValue1"],
    total: 3,
    hasMore: false,
  });
});

Deno.test("everything server lists its prompts with described arguments", async () => {
  await using client = await connect();
  assert.deepEqual(await client.listPrompts(), [
    { name: "test_simple_prompt", description: "A simple prompt without arguments", arguments: [] },
    {
      name: "test_prompt_with_arguments",
      description: "A prompt with required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
    },
    {
      name: "test_prompt_with_embedded_resource",
      description: "A prompt that includes an embedded resource",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    },
    { name: "test_prompt_with_image", description: "A prompt that includes image content", arguments: [] },
    {
      name: "test_input_required_result_prompt",
      description: "A prompt built from context the user gives (elicitation)",
      arguments: [],
    },
  ]);
});

Deno.test("prompts answer with text, arguments, an embedded resource and an image", async () => {
  await using client = await connect();
  const simple = await client.client.getPrompt({ name: "test_simple_prompt" });
  assert.deepEqual(simple.messages, [{
    role: "user",
    content: text("This is a simple prompt for testing."),
  }]);
  const withArgs = await client.getPrompt("test_prompt_with_arguments", {
    arg1: "testValue1",
    arg2: "testValue2",
  });
  assert.deepEqual(withArgs.messages, [
    { role: "user", content: text("Prompt with arguments: arg1='testValue1', arg2='testValue2'") },
  ]);
  const embedded = await client.getPrompt("test_prompt_with_embedded_resource", {
    resourceUri: "test://example-resource",
  });
  assert.deepEqual(embedded.messages, [
    {
      role: "user",
      content: {
        type: "resource",
        resource: {
          uri: "test://example-resource",
          mimeType: "text/plain",
          text: "Embedded resource content for testing.",
        },
      },
    },
    { role: "user", content: text("Please process the embedded resource above.") },
  ]);
  const image = await client.client.getPrompt({ name: "test_prompt_with_image" });
  assert.deepEqual(image.messages, [
    { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
    { role: "user", content: text("Please analyze the image above.") },
  ]);
});
