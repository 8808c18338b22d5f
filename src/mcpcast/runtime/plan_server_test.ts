import assert from "node:assert/strict";
import { createTestClient } from "../../mcp/mod.ts";
import { McpcastError } from "../errors.ts";
import { petPlan, TOKEN } from "../_test_plans.ts";
import { envOf, fakeUpstream } from "./_test_runtime.ts";
import { buildPlanServer, checkBind, planInstructions, registerPlanTool } from "./plan_server.ts";

function jsonOf(result: { content: unknown }): unknown {
  const [block] = result.content as Array<{ text: string }>;
  return JSON.parse(block.text);
}

function errorCode(result: { content: unknown; isError?: boolean }): string | undefined {
  if (!result.isError) return undefined;
  const [block] = result.content as Array<{ text: string }>;
  return JSON.parse(block.text).error.code;
}

const CLIENT_KEYS = JSON.stringify({
  "key-alice-0001": { client_id: "alice", tenant_id: "acme" },
  "key-bob-0002": { client_id: "bob", tenant_id: "acme", roles: ["approver"] },
  "key-carol-0003": { client_id: "carol", tenant_id: "beta", roles: ["approver"] },
});

Deno.test("a passthrough server lists the plan's tools and forwards the caller's token", async () => {
  const fake = fakeUpstream();
  const server = buildPlanServer(petPlan(), { fetch: fake.fetch, env: envOf() });
  assert.equal(server.name, "pets");
  await using client = await createTestClient(server, { token: TOKEN });
  const tools = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), [
    "get_pet",
    "find_pets",
    "create_pet",
    "delete_pet",
    "charge",
  ]);
  assert.equal(tools[0].annotations?.readOnlyHint, true);
  const result = await client.callTool("get_pet", { petId: "7" });
  assert.equal(errorCode(result), undefined);
  assert.equal(fake.seen[0].headers.get("authorization"), `Bearer ${TOKEN}`);
});

Deno.test("gated tools ask the calling client by default and fail closed without elicitation", async () => {
  const fake = fakeUpstream();
  const server = buildPlanServer(petPlan(), {
    fetch: fake.fetch,
    env: envOf(),
    operatorLog: () => undefined,
  });
  await using client = await createTestClient(server, { token: TOKEN });
  assert.equal(errorCode(await client.callTool("delete_pet", { petId: "7" })), "APPROVAL_REQUIRED");
  assert.equal(fake.seen.length, 0);
  const approving = buildPlanServer(petPlan(), { fetch: fake.fetch, env: envOf(), approver: () => true });
  await using approved = await createTestClient(approving, { token: TOKEN });
  assert.equal(errorCode(await approved.callTool("delete_pet", { petId: "7" })), undefined);
  assert.equal(fake.seen[0].method, "DELETE");
});

Deno.test("an api-key server authenticates clients and sends their tenant's upstream credential", async () => {
  const fake = fakeUpstream();
  const env = envOf({
    MCPCAST_CLIENT_KEYS: CLIENT_KEYS,
    MCPCAST_UPSTREAM_TOKENS: JSON.stringify({ acme: `${TOKEN}-acme`, beta: `${TOKEN}-beta` }),
  });
  const server = buildPlanServer(petPlan({ auth: "api-key", credential_name: "X-Upstream-Key" }), {
    fetch: fake.fetch,
    env,
  });
  await using anonymous = await createTestClient(server);
  assert.equal(errorCode(await anonymous.callTool("get_pet", { petId: "1" })), "AUTHENTICATION_ERROR");
  await using carol = await createTestClient(server, { headers: { "x-api-key": "key-carol-0003" } });
  assert.equal(errorCode(await carol.callTool("get_pet", { petId: "1" })), undefined);
  assert.equal(fake.seen[0].headers.get("x-upstream-key"), `${TOKEN}-beta`);
});

Deno.test("api-key gated calls wait for a reviewer of the same tenant; nobody approves their own", async () => {
  const fake = fakeUpstream();
  const env = envOf({
    MCPCAST_CLIENT_KEYS: CLIENT_KEYS,
    MCPCAST_UPSTREAM_TOKENS: JSON.stringify({ acme: TOKEN }),
  });
  const server = buildPlanServer(petPlan({ auth: "api-key" }), { fetch: fake.fetch, env });
  await using alice = await createTestClient(server, { headers: { "x-api-key": "key-alice-0001" } });
  await using bob = await createTestClient(server, { headers: { "x-api-key": "key-bob-0002" } });
  await using carol = await createTestClient(server, { headers: { "x-api-key": "key-carol-0003" } });
  const parked = alice.callTool("delete_pet", { petId: "9" });
  let pending: Array<{ request_id: string; tool: string }> = [];
  for (let i = 0; i < 50 && pending.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    pending = jsonOf(await bob.callTool("approvals_list")) as typeof pending;
  }
  assert.equal(pending.length, 1);
  assert.equal(pending[0].tool, "delete_pet");
  assert.deepEqual(jsonOf(await carol.callTool("approvals_list")), []);
  const decided = await bob.callTool("approvals_decide", {
    request_id: pending[0].request_id,
    approve: true,
  });
  assert.equal((jsonOf(decided) as { resolved: boolean }).resolved, true);
  assert.equal(errorCode(await parked), undefined);
  assert.equal(fake.seen[0].url.pathname, "/v1/pets/9");
  const own = bob.callTool("delete_pet", { petId: "10" });
  let mine: Array<{ request_id: string }> = [];
  for (let i = 0; i < 50 && mine.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    mine = jsonOf(await bob.callTool("approvals_list")) as typeof mine;
  }
  const self = await bob.callTool("approvals_decide", { request_id: mine[0].request_id, approve: true });
  assert.equal((jsonOf(self) as { resolved: boolean }).resolved, false);
  await bob.callTool("approvals_decide", { request_id: mine[0].request_id, approve: false });
  assert.equal(errorCode(await own), "APPROVAL_DENIED");
  assert.equal(fake.seen.length, 1);
});

Deno.test("an api-key server without client keys refuses to build", () => {
  assert.throws(
    () => buildPlanServer(petPlan({ auth: "api-key" }), { env: envOf() }),
    (error) => error instanceof McpcastError && /MCPCAST_CLIENT_KEYS is not set/.test(error.message),
  );
});

Deno.test("a tools callback registers instead of every plan tool", async () => {
  const plan = petPlan();
  const server = buildPlanServer(plan, {
    env: envOf(),
    fetch: fakeUpstream().fetch,
    tools: (target, upstream) => registerPlanTool(target, upstream.tool("get_pet"), upstream),
  });
  await using client = await createTestClient(server, { token: TOKEN });
  assert.deepEqual((await client.listTools()).map((tool) => tool.name), ["get_pet"]);
});

Deno.test("the instructions name the upstream and the gated tools", () => {
  const text = planInstructions(petPlan());
  assert.match(
    text,
    /^Tools for the pets API\. Every tool calls the upstream API at https:\/\/api\.example\.com\/v1\./,
  );
  assert.match(text, /Calls to create_pet, delete_pet, charge wait for a human's approval/);
  assert.match(
    planInstructions(petPlan(), { baseUrl: "https://staging.example.com" }),
    /at https:\/\/staging/,
  );
});

Deno.test("env-token and none servers refuse non-loopback binds unless public", () => {
  for (const auth of ["env-token", "none"]) {
    const plan = petPlan({ auth });
    assert.throws(
      () => checkBind(plan, "0.0.0.0"),
      (error) => error instanceof McpcastError && /--public/.test(error.message),
    );
    assert.doesNotThrow(() => checkBind(plan, "127.0.0.1"));
    assert.doesNotThrow(() => checkBind(plan, "localhost"));
    assert.doesNotThrow(() => checkBind(plan, "0.0.0.0", { public: true }));
  }
  assert.doesNotThrow(() => checkBind(petPlan(), "0.0.0.0"));
});
