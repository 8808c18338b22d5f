import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createTestClient } from "../../mcp/mod.ts";
import { petPlan, TOKEN } from "../_test_plans.ts";
import { envOf, fakeUpstream } from "./_test_runtime.ts";
import { searchPlanTools } from "./meta_tools.ts";
import { parseSpec } from "../parse/mod.ts";
import { buildPlan } from "../plan/mod.ts";
import { buildPlanServer, planInstructions } from "./plan_server.ts";

function jsonOf(result: { content: unknown }): unknown {
  const [block] = result.content as Array<{ text: string }>;
  return JSON.parse(block.text);
}

function errorOf(
  result: { content: unknown; isError?: boolean },
): { code: string; message: string } | undefined {
  if (!result.isError) return undefined;
  return (jsonOf(result) as { error: { code: string; message: string } }).error;
}

const metaPlan = (api: Record<string, unknown> = {}) => petPlan({ tool_mode: "meta", ...api });

Deno.test("a meta-mode server lists only the three meta tools and says how to use them", async () => {
  const server = buildPlanServer(metaPlan(), { fetch: fakeUpstream().fetch, env: envOf() });
  await using client = await createTestClient(server, { token: TOKEN });
  const tools = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ["search_tools", "describe_tool", "invoke_tool"]);
  assert.match(tools[0].description ?? "", /Search the 5 tools of the pets API/);
  assert.match(planInstructions(metaPlan()), /find one with search_tools, read its input schema/);
  const direct = await createTestClient(buildPlanServer(petPlan(), { env: envOf() }), { token: TOKEN });
  await using _ = direct;
  assert.equal((await direct.listTools()).length, 5);
});

Deno.test("search, describe and invoke reach a plan tool end to end", async () => {
  const fake = fakeUpstream(() => Response.json({ id: 7, name: "Rex" }));
  const server = buildPlanServer(metaPlan(), { fetch: fake.fetch, env: envOf() });
  await using client = await createTestClient(server, { token: TOKEN });
  const found = jsonOf(await client.callTool("search_tools", { query: "fetch pets" })) as {
    matches: Array<{ name: string; summary: string }>;
    total: number;
  };
  assert.equal(found.matches[0].name, "get_pet");
  assert.equal(found.matches[0].summary, "Fetch one pet.");
  const described = jsonOf(await client.callTool("describe_tool", { name: "get_pet" })) as {
    input_schema: { required: string[]; properties: Record<string, unknown> };
    risk: string;
  };
  assert.deepEqual(described.input_schema.required, ["petId"]);
  assert.equal(described.risk, "read");
  const result = await client.callTool("invoke_tool", { name: "get_pet", arguments: { petId: "7" } });
  assert.equal(errorOf(result), undefined);
  assert.deepEqual(jsonOf(result), { id: 7, name: "Rex" });
  assert.equal(fake.seen[0].url.pathname, "/v1/pets/7");
  assert.equal(fake.seen[0].headers.get("authorization"), `Bearer ${TOKEN}`);
  assert.equal(errorOf(await client.callTool("get_pet", { petId: "7" }))?.code, "TOOL_NOT_FOUND");
});

Deno.test("invoke_tool answers the tool's validation errors and refuses unknown names", async () => {
  const fake = fakeUpstream();
  const server = buildPlanServer(metaPlan(), { fetch: fake.fetch, env: envOf() });
  await using client = await createTestClient(server, { token: TOKEN });
  const invalid = errorOf(await client.callTool("invoke_tool", { name: "get_pet", arguments: {} }));
  assert.equal(invalid?.code, "VALIDATION_ERROR");
  assert.match(invalid?.message ?? "", /tool 'get_pet'/);
  const unknown = errorOf(await client.callTool("invoke_tool", { name: "nope_tool", arguments: {} }));
  assert.equal(unknown?.code, "TOOL_NOT_FOUND");
  assert.equal(
    errorOf(await client.callTool("describe_tool", { name: "nope_tool" }))?.code,
    "TOOL_NOT_FOUND",
  );
  assert.equal(
    errorOf(await client.callTool("invoke_tool", { name: "search_tools", arguments: { query: "x" } }))?.code,
    "TOOL_NOT_FOUND",
  );
  assert.equal(fake.seen.length, 0);
});

Deno.test("a gated tool behind invoke_tool still waits for approval of that tool", async () => {
  const fake = fakeUpstream();
  const closed = buildPlanServer(metaPlan(), {
    fetch: fake.fetch,
    env: envOf(),
    operatorLog: () => undefined,
  });
  await using refused = await createTestClient(closed, { token: TOKEN });
  const gated = { name: "delete_pet", arguments: { petId: "7" } };
  assert.equal(errorOf(await refused.callTool("invoke_tool", gated))?.code, "APPROVAL_REQUIRED");
  assert.equal(fake.seen.length, 0);
  const asked: string[] = [];
  const approving = buildPlanServer(metaPlan(), {
    fetch: fake.fetch,
    env: envOf(),
    approver: (request) => {
      asked.push(request.tool_name);
      return true;
    },
  });
  await using approved = await createTestClient(approving, { token: TOKEN });
  assert.equal(errorOf(await approved.callTool("invoke_tool", gated)), undefined);
  assert.deepEqual(asked, ["delete_pet"]);
  assert.equal(fake.seen[0].method, "DELETE");
  const described = jsonOf(await approved.callTool("describe_tool", { name: "delete_pet" })) as {
    description: string;
    requires_approval: boolean;
  };
  assert.equal(described.requires_approval, true);
  assert.match(described.description, /^\[requires approval\]/);
});

Deno.test("an api-key meta server authenticates both the meta tools and the invoked tool", async () => {
  const fake = fakeUpstream();
  const env = envOf({
    MCPCAST_CLIENT_KEYS: JSON.stringify({ "key-carol-0003": { client_id: "carol", tenant_id: "beta" } }),
    MCPCAST_UPSTREAM_TOKENS: JSON.stringify({ beta: `${TOKEN}-beta` }),
  });
  const server = buildPlanServer(metaPlan({ auth: "api-key", credential_name: "X-Upstream-Key" }), {
    fetch: fake.fetch,
    env,
  });
  await using anonymous = await createTestClient(server);
  assert.equal(
    errorOf(await anonymous.callTool("search_tools", { query: "pet" }))?.code,
    "AUTHENTICATION_ERROR",
  );
  await using carol = await createTestClient(server, { headers: { "x-api-key": "key-carol-0003" } });
  const result = await carol.callTool("invoke_tool", { name: "get_pet", arguments: { petId: "1" } });
  assert.equal(errorOf(result), undefined);
  assert.equal(fake.seen[0].headers.get("x-upstream-key"), `${TOKEN}-beta`);
});

Deno.test("search ranks name matches first, bounds its answer and lists all for a wordless query", () => {
  const tools = petPlan().tools;
  const { matches, total } = searchPlanTools(tools, "delete", 10);
  assert.equal(matches[0].name, "delete_pet");
  assert.equal(matches[0].requires_approval, true);
  assert.ok(total >= 1);
  assert.equal(searchPlanTools(tools, "pet", 2).matches.length, 2);
  assert.deepEqual(searchPlanTools(tools, "  ", 3).matches.map((m) => m.name), [
    "get_pet",
    "find_pets",
    "create_pet",
  ]);
  assert.deepEqual(searchPlanTools(tools, "zebra quantum", 10), { matches: [], total: 0 });
});

Deno.test("invoke_tool's gated call asks the calling client's user about the real tool", async () => {
  const fake = fakeUpstream();
  const server = buildPlanServer(metaPlan(), {
    fetch: fake.fetch,
    env: envOf(),
    operatorLog: () => undefined,
  });
  await using client = await createTestClient(server, { token: TOKEN, capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { approve: asked.length === 1 } };
  });
  const gated = { name: "delete_pet", arguments: { petId: "7" } };
  assert.equal(errorOf(await client.callTool("invoke_tool", gated)), undefined);
  assert.equal(fake.seen[0].method, "DELETE");
  assert.equal(errorOf(await client.callTool("invoke_tool", gated))?.code, "APPROVAL_DENIED");
  assert.equal(fake.seen.length, 1);
  assert.equal(asked.length, 2);
  assert.match(asked[0], /delete_pet/);
  const described = jsonOf(await client.callTool("describe_tool", { name: "delete_pet" })) as {
    input_schema: { properties: Record<string, unknown> };
  };
  assert.ok(Object.hasOwn(described.input_schema.properties, "approval_code"));
});

const GITHUB_SPEC = new URL("../../../tests/fixtures/specs/api.github.com.json", import.meta.url);

Deno.test({
  name: "search finds the closest GitHub tool among 622 for everyday tasks",
  ignore: !(() => {
    try {
      return Deno.statSync(GITHUB_SPEC).isFile;
    } catch {
      return false;
    }
  })(),
  fn: async () => {
    const { tools } = buildPlan(await parseSpec(GITHUB_SPEC.pathname), { profile: "read-only" });
    const first = (query: string) => searchPlanTools(tools, query, 3).matches[0]?.name;
    assert.equal(first("list open issues in a repository"), "issues_list_for_repo");
    assert.equal(first("search code"), "search_code");
    assert.equal(first("download a workflow run log"), "actions_download_workflow_run_logs");
    assert.ok(searchPlanTools(tools, "list commits", 5).matches.some((m) => m.name === "repos_list_commits"));
  },
});
