import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { run } from "../../mcp/mod.ts";
import { McpcastError } from "../errors.ts";
import { petPlan, TOKEN } from "../_test_plans.ts";
import { envOf, fakeUpstream } from "./_test_runtime.ts";
import { buildPlanServer, type PlanServerOptions } from "./plan_server.ts";

interface Served extends AsyncDisposable {
  client: Client;
  seen: ReturnType<typeof fakeUpstream>["seen"];
  log: string[];
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ code?: string; message?: string; text: string }>;
}

/** The pet plan served over streamable HTTP on 127.0.0.1, with an SDK client (no elicitation unless `elicit`). */
async function serve(
  options: { env?: Record<string, string>; elicit?: (message: string) => Record<string, unknown> } = {},
  overrides: Partial<PlanServerOptions> = {},
): Promise<Served> {
  const fake = fakeUpstream();
  const log: string[] = [];
  const server = buildPlanServer(petPlan(), {
    fetch: fake.fetch,
    env: envOf({ MCPCAST_UPSTREAM_TOKEN: TOKEN, ...options.env }),
    operatorLog: (line) => void log.push(line),
    ...overrides,
  });
  const stop = new AbortController();
  const served = await run(server, {
    transport: "http",
    port: 0,
    signal: stop.signal,
    onListen: () => undefined,
  });
  const client = new Client(
    { name: "approval-test", version: "1.0.0" },
    { capabilities: options.elicit ? { elicitation: {} } : {} },
  );
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(served.url!), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return {
    client,
    seen: fake.seen,
    log,
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const [block] = result.content as Array<{ text: string }>;
      if (!result.isError) return { text: block.text };
      const { error } = JSON.parse(block.text);
      return { code: error.code, message: `${error.message} ${error.suggestion ?? ""}`, text: block.text };
    },
    async [Symbol.asyncDispose]() {
      await client.close();
      stop.abort();
      await served.finished;
    },
  };
}

function codeIn(line: string | undefined): string {
  const match = /code ([0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}) /.exec(line ?? "");
  assert.ok(match, `no code in ${line}`);
  return match[1];
}

Deno.test("gated tools are listed with an approval marker, an approval_code argument and their hints", async () => {
  await using served = await serve();
  const { tools } = await served.client.listTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  assert.deepEqual([...byName.keys()], ["get_pet", "find_pets", "create_pet", "delete_pet", "charge"]);
  const deletePet = byName.get("delete_pet")!;
  assert.equal(deletePet.title, "[requires approval] delete_pet");
  assert.match(
    deletePet.description!,
    /^\[requires approval\] A human must approve every call\.\n\nDelete a pet\./,
  );
  assert.deepEqual(deletePet.annotations, {
    title: "[requires approval] delete_pet",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.equal((deletePet.inputSchema.properties?.approval_code as { type: string }).type, "string");
  assert.deepEqual(deletePet.inputSchema.required, ["petId"]);
  assert.equal(byName.get("create_pet")!.annotations?.destructiveHint, false);
  const getPet = byName.get("get_pet")!;
  assert.equal(getPet.title, undefined);
  assert.equal(getPet.inputSchema.properties?.approval_code, undefined);
  assert.equal(getPet.annotations?.readOnlyHint, true);
});

Deno.test("a client without elicitation gets APPROVAL_REQUIRED, and the operator's one-time code runs the call once", async () => {
  await using served = await serve();
  const first = await served.call("delete_pet", { petId: "7" });
  assert.equal(first.code, "APPROVAL_REQUIRED");
  assert.match(first.message!, /cannot ask its user \(no MCP elicitation\)/);
  assert.match(first.message!, /"approval_code": "<code>"/);
  assert.match(first.message!, /MCPCAST_APPROVE=delete_pet/);
  assert.equal(served.seen.length, 0);
  assert.equal(served.log.length, 1);
  assert.match(served.log[0], /approves one call of delete_pet with arguments \{"petId":"7"\}, valid 300s/);
  assert.doesNotMatch(first.text, new RegExp(codeIn(served.log[0])));
  const code = codeIn(served.log[0]);

  const wrong = await served.call("delete_pet", { petId: "7", approval_code: "0000-0000-0000" });
  assert.equal(wrong.code, "APPROVAL_DENIED");
  assert.match(wrong.message!, /not valid for this call/);
  const other = await served.call("delete_pet", { petId: "8", approval_code: code });
  assert.equal(other.code, "APPROVAL_DENIED");
  assert.equal(served.seen.length, 0);

  const approved = await served.call("delete_pet", { petId: "7", approval_code: code.toUpperCase() });
  assert.equal(approved.code, undefined, approved.text);
  assert.equal(served.seen.length, 1);
  assert.equal(served.seen[0].method, "DELETE");
  assert.equal(served.seen[0].url.href, "https://api.example.com/v1/pets/7");

  const again = await served.call("delete_pet", { petId: "7", approval_code: code });
  assert.equal(again.code, "APPROVAL_DENIED");
  assert.equal(served.seen.length, 1);
});

Deno.test("a client with elicitation is asked, and its refusal is a denial without a code", async () => {
  const asked: string[] = [];
  await using yes = await serve({
    elicit: (message) => (asked.push(message), { action: "accept", content: { approve: true } }),
  });
  assert.equal((await yes.call("delete_pet", { petId: "3" })).code, undefined);
  assert.match(asked[0], /delete_pet/);
  assert.equal(yes.seen.length, 1);
  await using no = await serve({ elicit: () => ({ action: "decline" }) });
  assert.equal((await no.call("delete_pet", { petId: "3" })).code, "APPROVAL_DENIED");
  assert.deepEqual(no.log, []);
  assert.equal(no.seen.length, 0);
});

Deno.test("MCPCAST_APPROVE approves the named gated tools for good and refuses names it does not gate", async () => {
  await using served = await serve({ env: { MCPCAST_APPROVE: "delete_pet, charge" } });
  assert.equal((await served.call("delete_pet", { petId: "5" })).code, undefined);
  assert.equal((await served.call("create_pet", { owner: "o", name: "Rex" })).code, "APPROVAL_REQUIRED");
  assert.equal(served.seen.length, 1);
  for (const name of ["get_pet", "delete_pets"]) {
    assert.throws(
      () => buildPlanServer(petPlan(), { env: envOf({ MCPCAST_APPROVE: name }) }),
      (error) => error instanceof McpcastError && error.message.includes(`not gated here: ${name}`),
    );
  }
});

Deno.test("a pending-queue server does not advertise approval_code", async () => {
  const env = envOf({
    MCPCAST_CLIENT_KEYS: JSON.stringify({ "key-a-0001": { client_id: "a", tenant_id: "t" } }),
  });
  const server = buildPlanServer(petPlan({ auth: "api-key" }), { env, fetch: fakeUpstream().fetch });
  const stop = new AbortController();
  const served = await run(server, {
    transport: "http",
    port: 0,
    signal: stop.signal,
    onListen: () => undefined,
  });
  const client = new Client({ name: "pending-test", version: "1.0.0" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url!), {
        requestInit: { headers: { "x-api-key": "key-a-0001" } },
      }),
    );
    const { tools } = await client.listTools();
    const deletePet = tools.find((tool) => tool.name === "delete_pet")!;
    assert.equal(deletePet.title, "[requires approval] delete_pet");
    assert.equal(deletePet.inputSchema.properties?.approval_code, undefined);
  } finally {
    await client.close();
    stop.abort();
    await served.finished;
  }
});
