/**
 * The generated project's own tests (`tests/tools_test.ts`): with the framework's in-process client
 * and a fake upstream, no network and no real credential, they check that every tool is listed,
 * that each read tool's example sends the request the plan describes, and that each gated tool is
 * refused, sending nothing, when the approver says no.
 *
 * @module
 */

import type { McpcastPlan, ToolPlan } from "../plan/mod.ts";
import { type CredentialVariable, credentialVariables } from "../runtime/internal.ts";
import { blockLiteral, commentText, literal } from "./code_text.ts";
import { headerLine } from "./header.ts";
import { type ExpectedCall, testCalls } from "./test_calls.ts";

// --- Slice D (issue 15, auth): made-up credentials for every scheme the plan's routes name. ---

/** The made-up value of one credential variable: shaped like what its scheme expects. */
function testValue(variable: CredentialVariable, plan: McpcastPlan): string {
  const id = variable.schemes[0];
  const scheme = id === undefined ? undefined : plan.api.security_schemes?.[id];
  if (scheme?.type === "basic") return "test-user:test-pass";
  if (scheme?.type === "http") return `${scheme.http_scheme} test-token`;
  if (scheme?.type === "api_key" || (scheme === undefined && variable.example === "<api key>")) {
    return "test-token";
  }
  return "Bearer test-token";
}

/** The made-up upstream credential of the tests, as sent in the plan's own slot. */
function testCredential(plan: McpcastPlan): string {
  const [own] = credentialVariables(plan.api);
  const value = own === undefined ? "Bearer test-token" : testValue(own, plan);
  return value.includes(":") ? `Basic ${btoa(value)}` : value;
}

function envFor(plan: McpcastPlan): Record<string, string> {
  const env: Record<string, string> = {};
  const { auth } = plan.api;
  const variables = credentialVariables(plan.api);
  if (auth === "env-token") {
    for (const variable of variables) {
      env[variable.name] = testValue(variable, plan);
    }
  }
  if (auth === "api-key") {
    env.MCPCAST_CLIENT_KEYS = JSON.stringify({
      "test-key": { client_id: "test-client", tenant_id: "test-tenant", roles: ["approver"] },
    });
    const entry = variables.length <= 1
      ? testCredential(plan)
      : Object.fromEntries(variables.flatMap((v) => v.schemes.map((id) => [id, testValue(v, plan)])));
    env.MCPCAST_UPSTREAM_TOKENS = JSON.stringify({ "test-tenant": entry });
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
  if (plan.api.auth === "api-key") return { "x-api-key": "test-key" };
  if (plan.api.auth !== "passthrough") return {};
  const headers: Record<string, string> = { authorization: testCredential(plan) };
  for (const scheme of Object.values(plan.api.security_schemes ?? {})) {
    if (scheme.type === "api_key" && scheme.in === "header") {
      headers[scheme.name.toLowerCase()] = "test-token";
    }
  }
  return headers;
}

/**
 * Whether the tests' made-up credentials meet `tool`'s first route: always, except under passthrough,
 * where one Authorization header cannot carry two schemes and query or cookie keys are not forwarded.
 */
function servedByTests(plan: McpcastPlan, tool: ToolPlan | undefined): boolean {
  const security = tool?.routes[0]?.security;
  if (plan.api.auth !== "passthrough" || security === undefined || security.length === 0) return true;
  const own = testCredential(plan).split(" ")[0].toLowerCase();
  const schemes = plan.api.security_schemes ?? {};
  return security.some((requirement) =>
    requirement.every((id) => {
      const scheme = Object.hasOwn(schemes, id) ? schemes[id] : undefined;
      if (scheme === undefined) return false;
      if (scheme.type === "api_key") return scheme.in === "header";
      const word = scheme.type === "http" ? scheme.http_scheme?.toLowerCase() : scheme.type;
      return word === own;
    })
  );
}

/** Whether `tool`'s first route sends the plan's own credential (no `security`, or a first requirement in its slot). */
function sendsOwnCredential(plan: McpcastPlan, tool: ToolPlan | undefined): boolean {
  const security = tool?.routes[0]?.security;
  if (security === undefined) return true;
  const [own] = credentialVariables(plan.api);
  const first = security[0];
  return first !== undefined && first.length === 1 && own !== undefined && own.schemes.includes(first[0]);
}

// --- end of slice D ---

function callsLiteral(calls: readonly ExpectedCall[]): string {
  if (calls.length === 0) return "[]";
  return `[\n${calls.map((call) => `  ${literal(call)},`).join("\n")}\n]`;
}

/** How the credential shows in a request the fake upstream received, or undefined for auth none. */
function credentialCheck(plan: McpcastPlan): string[] {
  const { auth, credential_location: location, credential_name: name } = plan.api;
  if (auth === "none") return [];
  const value = testCredential(plan);
  const index = readsOf(plan).findIndex((call) =>
    sendsOwnCredential(plan, plan.tools.find((tool) => tool.name === call.tool))
  );
  if (index < 0) return [];
  const read = auth !== "passthrough" && location === "query"
    ? `request.url.searchParams.get(${literal(name)})`
    : `request.headers.get(${literal(auth === "passthrough" ? "authorization" : name)})`;
  return [
    "",
    `Deno.test("the upstream credential travels in its slot", async () => {`,
    `  const call = READ_CALLS[${index}];`,
    "  if (call === undefined) return;",
    "  const upstream = fakeUpstream();",
    "  await using client = await connect({ fetch: upstream.fetch });",
    "  await client.callTool(call.tool, call.args);",
    "  const [request] = upstream.received;",
    `  assert.equal(${read}, ${literal(value)});`,
    "});",
  ];
}

/** The read calls the tests make: those the made-up credentials can serve (slice D, issue 15). */
function readsOf(plan: McpcastPlan): ExpectedCall[] {
  return testCalls(plan).reads.filter((call) =>
    servedByTests(plan, plan.tools.find((tool) => tool.name === call.tool))
  );
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

/** Meta-tool mode (`api.tool_mode: meta`): `connect` calls plan tools through `invoke_tool`. */
function metaConnect(): string[] {
  return [
    "/** The meta-tool mode's own tools (api.tool_mode: meta); plan tools are called through invoke_tool. */",
    'const META_TOOLS: readonly string[] = ["search_tools", "describe_tool", "invoke_tool"];',
    "",
    "async function connect(options: BuildServerOptions = {}): Promise<TestClient> {",
    "  const server = buildServer({ env: (name) => ENV[name], ...options });",
    "  const client = await createTestClient(server, { headers: HEADERS });",
    "  return {",
    "    ...client,",
    "    callTool: (name, args = {}, call) =>",
    "      META_TOOLS.includes(name)",
    "        ? client.callTool(name, args, call)",
    '        : client.callTool("invoke_tool", { name, arguments: args }, call),',
    "  };",
    "}",
  ];
}

/** Meta-tool mode: the three meta tools are listed and every plan tool is described. */
function metaListed(): string[] {
  return [
    'Deno.test("the meta tools are listed and describe every tool of the plan", async () => {',
    "  await using client = await connect({ fetch: fakeUpstream().fetch });",
    "  const listed = new Set((await client.listTools()).map((tool) => tool.name));",
    "  for (const name of META_TOOLS) assert.ok(listed.has(name), `${name} is listed`);",
    "  for (const name of TOOL_NAMES) {",
    '    const result = await client.callTool("describe_tool", { name });',
    "    assert.ok(!result.isError, textOf(result));",
    "  }",
    "});",
  ];
}

/** The source of `tests/tools_test.ts`. */
export function renderTests(plan: McpcastPlan, options: RenderTestsOptions = {}): string {
  const contract = options.contract ?? false;
  const { gated } = testCalls(plan);
  const reads = readsOf(plan);
  const names = plan.tools.map((tool) => tool.name);
  const meta = plan.api.tool_mode === "meta";
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
    ...(meta ? metaConnect() : [
      "async function connect(options: BuildServerOptions = {}): Promise<TestClient> {",
      "  const server = buildServer({ env: (name) => ENV[name], ...options });",
      "  return await createTestClient(server, { headers: HEADERS });",
      "}",
    ]),
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
    ...(meta ? metaListed() : [
      'Deno.test("every tool of the plan is listed", async () => {',
      "  await using client = await connect({ fetch: fakeUpstream().fetch });",
      "  const listed = new Set((await client.listTools()).map((tool) => tool.name));",
      "  for (const name of TOOL_NAMES) assert.ok(listed.has(name), `${name} is listed`);",
      "});",
    ]),
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
