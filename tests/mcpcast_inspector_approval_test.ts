/**
 * A gated mcpcast tool run by the official MCP Inspector CLI, which has no elicitation: over stdio the
 * operator pre-approves the tool (`MCPCAST_APPROVE`); over streamable HTTP the first call is refused with
 * `APPROVAL_REQUIRED` and the one-time code the server wrote for the operator runs the second. The
 * upstream is a local HTTP server that records what reaches it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { run } from "../src/mcp/mod.ts";
import { loadPlan, savePlan } from "../src/mcpcast/mod.ts";
import { buildPlanServer } from "../src/mcpcast/runtime/mod.ts";
import { petPlan } from "../src/mcpcast/_test_plans.ts";
import { CONFIG, tempDir } from "./_cli_harness.ts";
import { inspector } from "./_inspector.ts";

const PLAN_SERVER = fileURLToPath(new URL("./fixtures/mcpcast_plan_server.ts", import.meta.url));
const TOKEN = "upstream-token-for-tests";

interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

/** The Inspector's result; exit code 5 is a tool that answered with isError (the result is still printed). */
function inspect(args: string[], catalog?: unknown): Promise<ToolResult> {
  return inspector<ToolResult>(args, { catalog, exitCodes: [0, 5] });
}

function errorCode(result: ToolResult): string | undefined {
  return result.isError ? JSON.parse(result.content[0].text ?? "{}").error?.code : undefined;
}

/** A local upstream answering `{"ok": true}` and recording `METHOD path`. */
function upstream(): AsyncDisposable & { base: string; seen: string[] } {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => undefined }, (request) => {
    seen.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get("authorization")}`);
    return Response.json({ ok: true });
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}/v1`,
    seen,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("the Inspector CLI runs a gated tool over stdio once the operator pre-approved it", async () => {
  await using api = upstream();
  await using dir = await tempDir();
  const planFile = `${dir.path}/mcpcast.plan.yaml`;
  await Deno.writeTextFile(planFile, savePlan(petPlan({ auth: "env-token" })));
  const call = (env: string[]) =>
    inspect([
      "-e",
      `MCPCAST_BASE_URL=${api.base}`,
      "-e",
      `MCPCAST_UPSTREAM_TOKEN=Bearer ${TOKEN}`,
      ...env,
      "--method",
      "tools/call",
      "--tool-name",
      "delete_pet",
      "--tool-arg",
      "petId=rex",
      "--",
      Deno.execPath(),
      "run",
      "--quiet",
      `--config=${CONFIG}`,
      "-A",
      PLAN_SERVER,
      planFile,
    ]);
  const refused = await call([]);
  assert.equal(errorCode(refused), "APPROVAL_REQUIRED");
  assert.deepEqual(api.seen, []);
  const approved = await call(["-e", "MCPCAST_APPROVE=delete_pet"]);
  assert.equal(errorCode(approved), undefined, JSON.stringify(approved));
  assert.deepEqual(api.seen, [`DELETE /v1/pets/rex Bearer ${TOKEN}`]);
});

Deno.test("the Inspector CLI runs a gated tool over HTTP with the operator's one-time code", async () => {
  await using api = upstream();
  const log: string[] = [];
  const server = buildPlanServer(loadPlan(savePlan(petPlan({ auth: "env-token" }))), {
    env: (name) => ({ MCPCAST_BASE_URL: api.base, MCPCAST_UPSTREAM_TOKEN: `Bearer ${TOKEN}` })[name],
    operatorLog: (line) => void log.push(line),
  });
  const stop = new AbortController();
  const served = await run(server, {
    transport: "http",
    port: 0,
    signal: stop.signal,
    onListen: () => undefined,
  });
  try {
    // The Inspector CLI advertises elicitation by default but leaves an HTTP server's question
    // unanswered until its own request times out; a client without elicitation is what we test.
    const catalog = { mcpServers: { pets: { type: "http", url: served.url, elicitCapability: "off" } } };
    const call = (extra: string[]) =>
      inspect([
        "--server",
        "pets",
        "--method",
        "tools/call",
        "--tool-name",
        "delete_pet",
        "--tool-arg",
        "petId=rex",
        ...extra,
      ], catalog);
    const refused = await call([]);
    assert.equal(errorCode(refused), "APPROVAL_REQUIRED");
    assert.match(refused.content[0].text ?? "", /approval_code/);
    const code = /code (\S+) approves one call of delete_pet/.exec(log[0] ?? "")?.[1];
    assert.ok(code, `no code in ${log[0]}`);
    assert.deepEqual(api.seen, []);
    const approved = await call(["--tool-arg", `approval_code=${code}`]);
    assert.equal(errorCode(approved), undefined, JSON.stringify(approved));
    assert.deepEqual(api.seen, [`DELETE /v1/pets/rex Bearer ${TOKEN}`]);
  } finally {
    stop.abort();
    await served.finished;
  }
});
