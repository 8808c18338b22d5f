import assert from "node:assert/strict";
import { z } from "zod";
import { Logger, memorySink } from "../log.ts";
import { createRouter } from "./router.ts";
import { createTestClient } from "./testing.ts";
import { createToolServer, internalsOf } from "./tool_server.ts";
import type { Middleware } from "./types.ts";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

function errorOf(
  result: CallToolResult,
): { code: string; message: string; retryable: boolean; details?: Record<string, unknown> } {
  assert.equal(result.isError, true);
  const block = result.content[0];
  assert.equal(block.type, "text");
  return JSON.parse(block.type === "text" ? block.text : "").error;
}

function textOf(result: CallToolResult): string {
  const block = result.content[0];
  return block.type === "text" ? block.text : "";
}

Deno.test("tools are listed with description, input schema and annotations only when given", async () => {
  const server = createToolServer({ name: "maths" });
  server.tool("add", {
    description: "Add",
    input: z.object({ a: z.number().describe("first"), b: z.number() }),
  }, ({ a, b }) => a + b);
  server.tool("wipe", { title: "Wipe", destructiveHint: true }, () => undefined);
  await using client = await createTestClient(server);
  const [add, wipe] = await client.listTools();
  assert.equal(add.name, "add");
  assert.equal(add.description, "Add");
  assert.deepEqual(add.inputSchema.required, ["a", "b"]);
  assert.deepEqual(add.inputSchema.properties?.a, { type: "number", description: "first" });
  assert.equal(add.annotations, undefined);
  assert.equal(wipe.description, "Wipe");
  assert.deepEqual(wipe.annotations, { title: "Wipe", destructiveHint: true });
  assert.equal(wipe.title, "Wipe");
});

Deno.test("registration refuses unknown options, duplicates, bad names and bad rate limits", () => {
  const server = createToolServer();
  assert.throws(
    () => server.tool("a", { descripton: "typo" } as never, () => 1),
    /tool 'a': unknown option 'descripton'/,
  );
  server.tool("a", {}, () => 1);
  assert.throws(() => server.tool("a", {}, () => 1), /tool 'a' is already registered/);
  assert.throws(() => server.tool("bad name", {}, () => 1), /names use/);
  assert.throws(() => server.tool("b", { rateLimit: "5/fortnight" }, () => 1), /tool 'b'/);
  assert.throws(() => server.tool("c", { timeout: -1 }, () => 1), /timeout/);
  assert.throws(() => createToolServer({ nme: "x" } as never), /unknown option 'nme'/);
  assert.throws(() => server.resource("not a uri", {}, () => ""), /not a valid URI/);
});

Deno.test("tool calls validate arguments and answer VALIDATION_ERROR with field errors", async () => {
  const server = createToolServer();
  server.tool("add", { input: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => a + b);
  await using client = await createTestClient(server);
  assert.equal(textOf(await client.callTool("add", { a: 2, b: 3 })), "5");
  const error = errorOf(await client.callTool("add", { a: "2" }));
  assert.equal(error.code, "VALIDATION_ERROR");
  assert.equal(error.retryable, true);
  assert.deepEqual(Object.keys(error.details?.field_errors as object).sort(), ["a", "b"]);
  assert.doesNotMatch(JSON.stringify(error), /"2"/);
});

Deno.test("JSON Schema inputs are advertised as given and validated", async () => {
  const server = createToolServer();
  const schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object" as const,
    properties: { name: { type: "string", minLength: 1 } },
    required: ["name"],
    additionalProperties: false,
  };
  server.tool("hello", { input: schema }, (args) => `hi ${args.name}`);
  await using client = await createTestClient(server);
  assert.deepEqual((await client.listTools())[0].inputSchema, schema);
  assert.equal(textOf(await client.callTool("hello", { name: "ada" })), "hi ada");
  assert.equal(errorOf(await client.callTool("hello", { name: "" })).code, "VALIDATION_ERROR");
  assert.equal(errorOf(await client.callTool("hello", { name: "x", extra: 1 })).code, "VALIDATION_ERROR");
});

Deno.test("unknown tools answer TOOL_NOT_FOUND; unexpected exceptions answer a generic INTERNAL_ERROR", async () => {
  const sink = memorySink();
  const server = createToolServer({ logger: new Logger("t", { sink }) });
  server.tool("boom", {}, () => {
    throw new Error("database password is hunter2");
  });
  await using client = await createTestClient(server);
  assert.equal(errorOf(await client.callTool("nope")).code, "TOOL_NOT_FOUND");
  const error = errorOf(await client.callTool("boom"));
  assert.deepEqual(error, {
    code: "INTERNAL_ERROR",
    message: "An internal error occurred.",
    retryable: false,
  });
  assert.match(JSON.stringify(sink.records), /hunter2/);
});

Deno.test("middleware runs first-added outermost, router middleware after server middleware", async () => {
  const order: string[] = [];
  const mark = (name: string): Middleware => async (_ctx, next) => {
    order.push(`${name}>`);
    const value = await next();
    order.push(`<${name}`);
    return value;
  };
  const server = createToolServer().use(mark("a"), mark("b"));
  const router = createRouter({ prefix: "users", middleware: [mark("r")] });
  router.tool("search", {}, () => {
    order.push("handler");
    return "ok";
  });
  server.include(router, { prefix: "v1" });
  await using client = await createTestClient(server);
  assert.equal(textOf(await client.callTool("v1_users_search")), "ok");
  assert.deepEqual(order, ["a>", "b>", "r>", "handler", "<r", "<b", "<a"]);
});

Deno.test("routers merge tags, force auth and freeze once included", () => {
  const inner = createRouter({ prefix: "inner", tags: ["x"] }).tool("t", { tags: ["y"] }, () => 1);
  const outer = createRouter({ prefix: "outer", auth: true }).include(inner);
  const server = createToolServer().include(outer);
  const tool = internalsOf(server).registry.tools.get("outer_inner_t")!;
  assert.deepEqual(tool.tags, ["x", "y"]);
  assert.equal(tool.auth, true);
  assert.throws(() => inner.tool("late", {}, () => 1), /already included/);
  assert.throws(() => createRouter({ prefx: "a" } as never), /unknown option 'prefx'/);
});

Deno.test("mount copies child tools under a prefix with the child's middleware and hooks", async () => {
  const seen: string[] = [];
  const child = createToolServer({ name: "child" }).use(async (ctx, next) => {
    seen.push(ctx.name);
    return await next();
  });
  child.tool("ping", {}, () => "pong").prompt("greet", {}, () => "hello");
  child.onStartup(() => void seen.push("child-start"));
  const parent = createToolServer().mount("kid", child);
  await parent.startup();
  await using client = await createTestClient(parent);
  assert.equal(textOf(await client.callTool("kid_ping")), "pong");
  assert.equal((await client.listPrompts())[0].name, "greet");
  assert.deepEqual(seen, ["child-start", "kid_ping"]);
});

Deno.test("roles imply auth and a role guard; requireTenant adds a tenant guard everywhere", () => {
  const server = createToolServer({ requireTenant: true });
  server.tool("admin", { roles: ["admin"] }, () => 1);
  server.resource("docs://a", {}, () => "a");
  const tool = internalsOf(server).registry.tools.get("admin")!;
  assert.equal(tool.auth, true);
  assert.deepEqual(tool.guards.map((g) => g.constructor.name), ["HasRole", "RequireTenant"]);
  const resource = internalsOf(server).registry.resources.get("docs://a")!;
  assert.equal(resource.auth, true);
  assert.deepEqual(resource.guards.map((g) => g.constructor.name), ["RequireTenant"]);
  assert.equal(
    internalsOf(createToolServer({ requireAuth: true }).tool("x", {}, () => 1)).registry.tools.get("x")!.auth,
    true,
  );
});

Deno.test("a tool's own timeout bounds guards and handler; settings give a default timeout", async () => {
  const server = createToolServer({ settings: { timeoutDefault: 0.05 } });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = () => new Promise((resolve) => timer = setTimeout(resolve, 200, "late"));
  server.tool("slow", { timeout: 0.02 }, slow);
  server.tool("slowDefault", {}, slow);
  await using client = await createTestClient(server);
  const error = errorOf(await client.callTool("slow"));
  assert.equal(error.code, "TIMEOUT");
  assert.equal(error.retryable, true);
  assert.equal(errorOf(await client.callTool("slowDefault")).code, "TIMEOUT");
  clearTimeout(timer);
  await new Promise((resolve) => setTimeout(resolve, 210));
});

Deno.test("resources: static text, templates with one-segment and rest variables, blobs, not found", async () => {
  const server = createToolServer();
  server.resource("docs://readme", { description: "Read me", mimeType: "text/markdown" }, () => "# hi");
  server.resourceTemplate("users://{id}/avatar", { mimeType: "image/png" }, () => new Uint8Array([1]));
  server.resourceTemplate("files://{path*}", {}, ({ path }) => `file ${path}`);
  await using client = await createTestClient(server);
  assert.deepEqual(await client.listResources(), [
    { uri: "docs://readme", name: "docs://readme", mimeType: "text/markdown", description: "Read me" },
  ]);
  assert.equal((await client.listResourceTemplates()).length, 2);
  assert.deepEqual((await client.readResource("docs://readme")).contents, [
    { uri: "docs://readme", mimeType: "text/markdown", text: "# hi" },
  ]);
  assert.deepEqual((await client.readResource("users://7/avatar")).contents, [
    { uri: "users://7/avatar", mimeType: "image/png", blob: "AQ==" },
  ]);
  assert.deepEqual((await client.readResource("files://a/b.txt")).contents[0], {
    uri: "files://a/b.txt",
    mimeType: "text/plain",
    text: "file a/b.txt",
  });
  await assert.rejects(client.readResource("users://7/8/avatar"), /Resource not found/);
});

Deno.test("prompts: coercion, validation and message shapes", async () => {
  const server = createToolServer();
  server.prompt(
    "story",
    {
      description: "Tell a story",
      arguments: z.object({ topic: z.string(), words: z.number().max(500) }),
    },
    ({ topic, words }) => [`Write ${words} words about ${topic}`, { role: "assistant", content: "Once..." }],
  );
  await using client = await createTestClient(server);
  assert.deepEqual((await client.listPrompts())[0].arguments, [
    { name: "topic", required: true },
    { name: "words", required: true },
  ]);
  const result = await client.getPrompt("story", { topic: "owls", words: "100" });
  assert.equal(result.description, "Tell a story");
  assert.deepEqual(result.messages[0].content, { type: "text", text: "Write 100 words about owls" });
  assert.equal(result.messages[1].role, "assistant");
  await assert.rejects(
    client.getPrompt("story", { topic: "owls", words: "9000" }),
    /Invalid arguments for prompt 'story': words/,
  );
  await assert.rejects(client.getPrompt("nope"), /Unknown prompt/);
});

Deno.test("completion answers from prompt and template completers", async () => {
  const server = createToolServer();
  const langs = ["python", "perl", "rust"];
  server.prompt("review", {
    arguments: z.object({ language: z.string() }),
    complete: { language: (value) => langs.filter((l) => l.startsWith(value)) },
  }, ({ language }) => `Review ${language}`);
  server.resourceTemplate("lang://{name}", { complete: { name: () => langs } }, ({ name }) => name);
  await using client = await createTestClient(server);
  const prompt = await client.client.complete({
    ref: { type: "ref/prompt", name: "review" },
    argument: { name: "language", value: "p" },
  });
  assert.deepEqual(prompt.completion, { values: ["python", "perl"], total: 2, hasMore: false });
  const template = await client.client.complete({
    ref: { type: "ref/resource", uri: "lang://{name}" },
    argument: { name: "name", value: "" },
  });
  assert.equal(template.completion.values.length, 3);
  assert.throws(
    () => server.prompt("x", { complete: { nope: () => [] } }, () => ""),
    /unknown argument 'nope'/,
  );
});

Deno.test("declared protections must be enforced: auth or approval without middleware fails closed", async () => {
  const needsAuth = createToolServer().tool("secret", { auth: true }, () => "s");
  assert.throws(
    () => needsAuth.assertReady(),
    /tool 'secret' requires authentication, but no auth middleware/,
  );
  const needsGate = createToolServer().tool("pay", { requiresApproval: true }, () => "p");
  assert.throws(() => needsGate.assertReady(), /tool 'pay' requires approval/);
  await assert.rejects(createTestClient(needsAuth), /requires authentication/);
  const sink = memorySink();
  const late = createToolServer({ logger: new Logger("t", { sink }) });
  await using client = await createTestClient(late);
  late.tool("secret", { auth: true }, () => "s").tool("pay", { requiresApproval: true }, () => "p");
  assert.equal(errorOf(await client.callTool("secret")).code, "AUTHENTICATION_ERROR");
  assert.equal(errorOf(await client.callTool("pay")).code, "APPROVAL_DENIED");
  assert.equal(sink.records.filter((r) => r.level === "error").length, 2);
});

Deno.test("requestStateSecret: instances sharing a secret continue each other's calls; short secrets are refused", async () => {
  const binding = { method: "tools/call", name: "deploy", args: {} };
  const state = { answers: { e1: { action: "accept" } }, round: 1 };
  const secret = "one secret for every instance behind the balancer";
  const a = internalsOf(createToolServer({ settings: {}, requestStateSecret: secret })).requestStates;
  const b =
    internalsOf(createToolServer({ settings: {}, requestStateSecret: new TextEncoder().encode(secret) }))
      .requestStates;
  assert.deepEqual(await b.open(await a.seal(binding, state), binding), state);
  // Without the option, the servers of one process share a random per-process secret.
  const c = internalsOf(createToolServer({ settings: {} })).requestStates;
  const d = internalsOf(createToolServer({ settings: {} })).requestStates;
  const token = await c.seal(binding, state);
  assert.deepEqual(await d.open(token, binding), state);
  await assert.rejects(a.open(token, binding), /Invalid or expired requestState/);
  assert.throws(
    () => createToolServer({ settings: {}, requestStateSecret: "too short" }),
    /tool server: requestStateSecret must be at least 32 bytes \(got 9\)/,
  );
  assert.throws(
    () => createToolServer({ requestStateSecret: 7 as never }),
    /must be a string or a Uint8Array/,
  );
});
