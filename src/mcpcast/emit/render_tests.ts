/**
 * The generated project's own tests (`tests/tools_test.ts`): with the framework's in-process client
 * and a fake upstream, no network and no real credential, they check that every tool is listed,
 * that each read tool's example sends the request the plan describes, and that each gated tool is
 * refused, sending nothing, when the approver says no.
 *
 * @module
 */

import type { McpcastPlan } from "../plan/mod.ts";
import { blockLiteral, commentText, literal } from "./code_text.ts";
import { headerLine } from "./header.ts";
import { type ExpectedCall, testCalls } from "./test_calls.ts";

/** The made-up upstream credential of the tests: a Bearer token for the Authorization header, else a bare key. */
function testCredential(plan: McpcastPlan): string {
  const { auth, credential_location: location, credential_name: name } = plan.api;
  const authorization = auth === "passthrough" ||
    (location === "header" && name.toLowerCase() === "authorization");
  return authorization ? "Bearer test-token" : "test-token";
}

function envFor(plan: McpcastPlan): Record<string, string> {
  const env: Record<string, string> = {};
  const { auth } = plan.api;
  if (auth === "env-token") env.MCPCAST_UPSTREAM_TOKEN = testCredential(plan);
  if (auth === "api-key") {
    env.MCPCAST_CLIENT_KEYS = JSON.stringify({
      "test-key": { client_id: "test-client", tenant_id: "test-tenant", roles: ["approver"] },
    });
    env.MCPCAST_UPSTREAM_TOKENS = JSON.stringify({ "test-tenant": testCredential(plan) });
  }
  const hosts = [
    plan.api.base_url,
    ...plan.tools.flatMap((tool) => tool.routes.map((route) => route.base_url ?? "")),
  ];
  if (auth !== "none" && hosts.some((host) => host.startsWith("http:"))) {
    env.MCPCAST_ALLOW_INSECURE_HTTP = "1";
  }
  return env;
}

function headersFor(plan: McpcastPlan): Record<string, string> {
  if (plan.api.auth === "passthrough") return { authorization: "Bearer test-token" };
  if (plan.api.auth === "api-key") return { "x-api-key": "test-key" };
  return {};
}

function callsLiteral(calls: readonly ExpectedCall[]): string {
  if (calls.length === 0) return "[]";
  return `[\n${calls.map((call) => `  ${literal(call)},`).join("\n")}\n]`;
}

/** How the credential shows in a request the fake upstream received, or undefined for auth none. */
function credentialCheck(plan: McpcastPlan): string[] {
  const { auth, credential_location: location, credential_name: name } = plan.api;
  if (auth === "none") return [];
  const value = testCredential(plan);
  const read = auth !== "passthrough" && location === "query"
    ? `request.url.searchParams.get(${literal(name)})`
    : `request.headers.get(${literal(auth === "passthrough" ? "authorization" : name)})`;
  return [
    "",
    `Deno.test("the upstream credential travels in its slot", async () => {`,
    "  const call = READ_CALLS[0];",
    "  if (call === undefined) return;",
    "  const upstream = fakeUpstream();",
    "  await using client = await connect({ fetch: upstream.fetch });",
    "  await client.callTool(call.tool, call.args);",
    "  const [request] = upstream.received;",
    `  assert.equal(${read}, ${literal(value)});`,
    "});",
  ];
}

/**
 * The contract test: each example request (gated calls approved) checked against the spec operation
 * it came from, as cut into `tests/contract.json`, never against the plan.
 */
function contractCheck(plan: McpcastPlan): string[] {
  const ignore = plan.api.auth === "none" ? [] : [plan.api.credential_name];
  if (plan.api.auth === "passthrough") ignore.push("authorization");
  return [
    "",
    "/** Query parameters and headers the contract check leaves to the credential. */",
    `const CREDENTIAL_SLOTS: readonly string[] = ${literal(ignore)};`,
    "",
    'Deno.test("each example request is one the spec\'s operation accepts", async (t) => {',
    "  const upstream = fakeUpstream();",
    "  await using client = await connect({ fetch: upstream.fetch, approver: () => true });",
    "  for (const call of [...READ_CALLS, ...GATED_CALLS]) {",
    "    await t.step(`${call.tool}: ${call.method} ${call.target} fits ${call.operation}`, async () => {",
    "      upstream.received.length = 0;",
    "      const result = await client.callTool(call.tool, call.args);",
    "      assert.ok(!result.isError, textOf(result));",
    "      assert.equal(upstream.received.length, 1);",
    "      const problems = checkRequest(CONTRACT, call.operation, upstream.received[0], { ignore: CREDENTIAL_SLOTS });",
    "      assert.deepEqual(problems, []);",
    "    });",
    "  }",
    "});",
  ];
}

/** Options for {@linkcode renderTests}. */
export interface RenderTestsOptions {
  /** The project has `tests/contract.json`: add the contract test. @default false */
  contract?: boolean;
}

/** The source of `tests/tools_test.ts`. */
export function renderTests(plan: McpcastPlan, options: RenderTestsOptions = {}): string {
  const contract = options.contract ?? false;
  const { reads, gated } = testCalls(plan);
  const names = plan.tools.map((tool) => tool.name);
  return [
    headerLine("slash").trimEnd(),
    "/**",
    ` * Tests of the ${
      commentText(plan.api.name, 64)
    } MCP server against a fake upstream: no network, no real`,
    " * credential. Regenerated with the project: put tests of your own in other files.",
    " *",
    " * @module",
    " */",
    "",
    'import assert from "node:assert/strict";',
    'import { createTestClient, type TestClient } from "@agentry/agentry/mcp";',
    'import { buildServer, type BuildServerOptions } from "../src/server.ts";',
    ...(contract
      ? [
        'import { checkRequest, type ContractDocument } from "@agentry/agentry/mcpcast/runtime";',
        'import CONTRACT_JSON from "./contract.json" with { type: "json" };',
        "",
        "/** The spec operations the tools call (cut from the spec at generation). */",
        "const CONTRACT = CONTRACT_JSON as unknown as ContractDocument;",
      ]
      : []),
    "",
    "/** Settings and made-up credentials for this server's auth mode. */",
    `const ENV: Readonly<Record<string, string>> = ${blockLiteral(envFor(plan))};`,
    "",
    "/** Headers the test client sends with every call. */",
    `const HEADERS: Readonly<Record<string, string>> = ${blockLiteral(headersFor(plan))};`,
    "",
    "/** A request the fake upstream received. */",
    "interface Received {",
    "  method: string;",
    "  url: URL;",
    "  headers: Headers;",
    "  body: string;",
    "}",
    "",
    '/** A fake upstream: records each request and answers 200 `{"ok": true, "path": <path>}`. */',
    "function fakeUpstream(): { fetch: (request: Request) => Promise<Response>; received: Received[] } {",
    "  const received: Received[] = [];",
    "  const fetch = async (request: Request): Promise<Response> => {",
    "    const url = new URL(request.url);",
    "    received.push({ method: request.method, url, headers: request.headers, body: await request.text() });",
    "    return Response.json({ ok: true, path: url.pathname });",
    "  };",
    "  return { fetch, received };",
    "}",
    "",
    "async function connect(options: BuildServerOptions = {}): Promise<TestClient> {",
    "  const server = buildServer({ env: (name) => ENV[name], ...options });",
    "  return await createTestClient(server, { headers: HEADERS });",
    "}",
    "",
    "/** The text of a result's first content block. */",
    "function textOf(result: { content: unknown }): string {",
    "  const [block] = result.content as Array<{ type: string; text?: string }>;",
    '  return block?.type === "text" ? block.text ?? "" : "";',
    "}",
    "",
    "interface Call {",
    "  tool: string;",
    "  args: Record<string, unknown>;",
    "  method: string;",
    "  target: string;",
    "  operation: string;",
    "}",
    "",
    "/** Every tool of the plan. */",
    `const TOOL_NAMES: readonly string[] = ${
      names.length === 0 ? "[]" : `[\n${names.map((name) => `  ${literal(name)},`).join("\n")}\n]`
    };`,
    "",
    "/** Read tools called with their example, and the request each must send. */",
    `const READ_CALLS: readonly Call[] = ${callsLiteral(reads)};`,
    "",
    "/** Gated tools called with their example. */",
    `const GATED_CALLS: readonly Call[] = ${callsLiteral(gated)};`,
    "",
    'Deno.test("every tool of the plan is listed", async () => {',
    "  await using client = await connect({ fetch: fakeUpstream().fetch });",
    "  const listed = new Set((await client.listTools()).map((tool) => tool.name));",
    "  for (const name of TOOL_NAMES) assert.ok(listed.has(name), `${name} is listed`);",
    "});",
    "",
    'Deno.test("read tools send the request the plan describes", async (t) => {',
    "  const upstream = fakeUpstream();",
    "  await using client = await connect({ fetch: upstream.fetch });",
    "  for (const call of READ_CALLS) {",
    "    await t.step(`${call.tool} sends ${call.method} ${call.target}`, async () => {",
    "      upstream.received.length = 0;",
    "      const result = await client.callTool(call.tool, call.args);",
    "      assert.ok(!result.isError, textOf(result));",
    "      assert.equal(upstream.received.length, 1);",
    "      const [request] = upstream.received;",
    "      assert.equal(request.method, call.method);",
    "      assert.equal(`${request.url.pathname}${request.url.search}`, call.target);",
    "      assert.deepEqual(JSON.parse(textOf(result)), { ok: true, path: request.url.pathname });",
    "    });",
    "  }",
    "});",
    "",
    'Deno.test("gated tools are refused and send nothing when the approver says no", async (t) => {',
    "  const upstream = fakeUpstream();",
    "  await using client = await connect({ fetch: upstream.fetch, approver: () => false });",
    "  for (const call of GATED_CALLS) {",
    "    await t.step(`${call.tool} is denied`, async () => {",
    "      const result = await client.callTool(call.tool, call.args);",
    "      assert.equal(result.isError, true);",
    '      assert.equal(JSON.parse(textOf(result)).error.code, "APPROVAL_DENIED");',
    "      assert.equal(upstream.received.length, 0);",
    "    });",
    "  }",
    "});",
    ...credentialCheck(plan),
    ...(contract ? contractCheck(plan) : []),
    "",
  ].join("\n");
}
