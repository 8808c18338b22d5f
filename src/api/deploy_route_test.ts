import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXED_MESSAGES } from "./errors.ts";
import { deploy, testApi } from "../../tests/_api_harness.ts";

const UNSET_VAR = "AGENTRY_TEST_SECRET_NOT_SET";
const failingSecret = { secrets: { enabled: true, secrets: { API_KEY: `\${${UNSET_VAR}}` } } };

const fields = (answer: { body: { error: { details?: Array<{ field: string }> } } }) =>
  (answer.body.error.details ?? []).map((d) => d.field);

Deno.test("deploy answers 201 {name, process_id, state: created, created_at} and registers the process", async () => {
  await using api = await testApi();
  const before = Date.now() / 1000;
  const answer = await deploy(api, "reporter", { instructions: "Summarise the day." });
  assert.equal(answer.status, 201);
  assert.deepEqual(Object.keys(answer.body).sort(), ["created_at", "name", "process_id", "state"]);
  assert.equal(answer.body.name, "reporter");
  assert.equal(answer.body.state, "created");
  assert.match(answer.body.process_id, /^[0-9a-f-]{36}$/);
  assert.ok(answer.body.created_at >= before - 1 && answer.body.created_at <= Date.now() / 1000 + 1);
  const list = await api.call("GET", "/api/v1/processes");
  assert.deepEqual(list.body.processes, [{
    name: "reporter",
    state: "created",
    process_id: answer.body.process_id,
  }]);
});

Deno.test("deploy with start true answers state running", async () => {
  await using api = await testApi();
  const answer = await deploy(api, "runner", {}, { start: true });
  assert.equal(answer.status, 201);
  assert.equal(answer.body.state, "running");
  assert.equal(api.runtime.get("runner")?.state, "running");
});

Deno.test("names breaking the name rule are 422 INVALID_NAME; 64 characters pass", async () => {
  await using api = await testApi();
  const names: unknown[] = [
    "1abc",
    "_a",
    "-a",
    "a b",
    "a.b",
    "a/b",
    "",
    "été",
    `a${"b".repeat(64)}`,
    42,
    null,
  ];
  for (const name of names) {
    const answer = await api.call("POST", "/api/v1/processes", { json: { name, config: {} } });
    assert.equal(answer.status, 422, JSON.stringify(name));
    assert.equal(answer.body.error.code, "INVALID_NAME", JSON.stringify(name));
  }
  assert.equal(api.runtime.size, 0);
  const longest = `a${"B-_9".repeat(15)}xyz`;
  assert.equal(longest.length, 64);
  assert.equal((await deploy(api, longest)).status, 201);
});

Deno.test("a body without name or without config is 422 MISSING_FIELD naming the field", async () => {
  await using api = await testApi();
  const noName = await api.call("POST", "/api/v1/processes", { json: { config: {} } });
  assert.equal(noName.status, 422);
  assert.equal(noName.body.error.code, "MISSING_FIELD");
  assert.deepEqual(fields(noName), ["name"]);
  const noConfig = await api.call("POST", "/api/v1/processes", { json: { name: "a" } });
  assert.equal(noConfig.status, 422);
  assert.equal(noConfig.body.error.code, "MISSING_FIELD");
  assert.deepEqual(fields(noConfig), ["config"]);
  const empty = await api.call("POST", "/api/v1/processes");
  assert.equal(empty.body.error.code, "MISSING_FIELD");
  assert.equal(api.runtime.size, 0);
});

Deno.test('start must be a boolean: "yes" or 1 is 422 INVALID_FIELD', async () => {
  await using api = await testApi();
  for (const start of ["yes", 1, "true"]) {
    const answer = await deploy(api, "a", {}, { start });
    assert.equal(answer.status, 422, JSON.stringify(start));
    assert.equal(answer.body.error.code, "INVALID_FIELD");
    assert.deepEqual(fields(answer), ["start"]);
  }
  assert.equal(api.runtime.size, 0);
});

Deno.test("an unknown top-level body field is 422 UNKNOWN_FIELD", async () => {
  await using api = await testApi();
  const answer = await deploy(api, "a", {}, { autostart: true });
  assert.equal(answer.status, 422);
  assert.equal(answer.body.error.code, "UNKNOWN_FIELD");
  assert.deepEqual(fields(answer), ["autostart"]);
  assert.equal(api.runtime.size, 0);
});

Deno.test("a registered name is 409 PROCESS_EXISTS and the first process is kept", async () => {
  await using api = await testApi();
  const first = await deploy(api, "a", { instructions: "first" });
  const second = await deploy(api, "a", { instructions: "second" });
  assert.equal(second.status, 409);
  assert.equal(second.body.error.code, "PROCESS_EXISTS");
  assert.equal(api.runtime.get("a")?.processId, first.body.process_id);
  assert.equal(api.runtime.get("a")?.config.instructions, "first");
});

Deno.test("an invalid config is 422 INVALID_CONFIG listing each bad field and what was expected", async () => {
  await using api = await testApi();
  const answer = await deploy(api, "a", {
    budget: { max_tool_calls_per_day: "5", escalation: { webhook_url: "https://hooks.example/x", bogus: 1 } },
    inbox: { max_messages: 0 },
  });
  assert.equal(answer.status, 422);
  assert.equal(answer.body.error.code, "INVALID_CONFIG");
  const details: Array<{ field: string; expected: string }> = answer.body.error.details;
  for (const detail of details) {
    assert.deepEqual(Object.keys(detail).sort(), ["expected", "field"]);
    assert.ok(detail.expected.length > 0);
  }
  const expectedAt = (field: string) => {
    const found = details.find((d) => d.field === field);
    assert.ok(found, `no detail for ${field} in ${JSON.stringify(details)}`);
    return found.expected;
  };
  assert.match(expectedAt("config.budget.max_tool_calls_per_day"), /integer/);
  assert.match(expectedAt("config.inbox.max_messages"), /1/);
  assert.match(expectedAt("config.budget.escalation.bogus"), /no such field/);
  assert.equal(details.length, 3);
  assert.equal(api.runtime.size, 0);
});

Deno.test("a config that is not an object, or has unknown keys, is 422 INVALID_CONFIG", async () => {
  await using api = await testApi();
  for (const config of [null, [], "instructions", { instructionz: "typo" }]) {
    const answer = await api.call("POST", "/api/v1/processes", { json: { name: "a", config } });
    assert.equal(answer.status, 422, JSON.stringify(config));
    assert.equal(answer.body.error.code, "INVALID_CONFIG", JSON.stringify(config));
  }
});

Deno.test("a secret naming an allowed but unset variable: 500 START_FAILED, fixed message, process kept as failed", async () => {
  await using api = await testApi({ allowedEnvVars: [UNSET_VAR] });
  const answer = await deploy(api, "keeper", failingSecret, { start: true });
  assert.equal(answer.status, 500);
  assert.equal(answer.body.error.code, "START_FAILED");
  assert.equal(answer.body.error.message, FIXED_MESSAGES.START_FAILED);
  assert.match(answer.body.error.error_id, /^err_[0-9a-f]{16}$/);
  assert.ok(!answer.text.includes(UNSET_VAR), "the answer must not reveal the variable");
  const status = await api.call("GET", "/api/v1/processes/keeper");
  assert.equal(status.status, 200);
  assert.equal(status.body.state, "failed");
  const logged = api.records.find((r) => r.fields.error_id === answer.body.error.error_id);
  assert.equal(logged?.level, "error");

  const retry = await deploy(api, "keeper", {});
  assert.equal(retry.status, 409);
  assert.equal(retry.body.error.code, "PROCESS_EXISTS");

  const start = await api.call("POST", "/api/v1/processes/keeper/start");
  assert.equal(start.status, 500);
  assert.equal(start.body.error.code, "START_FAILED");
  assert.equal(start.body.error.message, FIXED_MESSAGES.START_FAILED);
  assert.match(start.body.error.error_id, /^err_/);
  assert.notEqual(start.body.error.error_id, answer.body.error.error_id);
  assert.ok(!start.text.includes(UNSET_VAR));
  assert.equal(api.runtime.get("keeper")?.state, "failed");
});

Deno.test("a set and allowed variable resolves and the process starts", async () => {
  await using api = await testApi({
    allowedEnvVars: ["AGENTRY_TEST_KEY"],
    env: (name) => (name === "AGENTRY_TEST_KEY" ? "key-value-1" : undefined),
  });
  const answer = await deploy(
    api,
    "a",
    { secrets: { enabled: true, secrets: { K: "${AGENTRY_TEST_KEY}" } } },
    {
      start: true,
    },
  );
  assert.equal(answer.status, 201);
  assert.equal(answer.body.state, "running");
  assert.ok(!JSON.stringify((await api.call("GET", "/api/v1/processes/a")).body).includes("key-value-1"));
});

Deno.test("a valid config that cannot become a process is 422 DEPLOY_FAILED with an error id", async () => {
  await using api = await testApi();
  const blocker = join(api.dataDir, "not-a-directory");
  await Deno.writeTextFile(blocker, "a regular file");
  const answer = await deploy(api, "a", { journal: { backend: "sqlite", path: blocker } });
  assert.equal(answer.status, 422);
  assert.equal(answer.body.error.code, "DEPLOY_FAILED");
  assert.equal(answer.body.error.message, FIXED_MESSAGES.DEPLOY_FAILED);
  assert.match(answer.body.error.error_id, /^err_[0-9a-f]{16}$/);
  assert.ok(!answer.text.includes(blocker));
  const logged = api.records.find((r) => r.fields.error_id === answer.body.error.error_id);
  assert.equal(logged?.level, "warning");
  assert.equal((await api.call("GET", "/api/v1/processes/a")).status, 404);
});

Deno.test("a config nested deeper than 64 levels is 422 INVALID_FIELD and nothing is deployed; 3,000 and 10,000 too", async () => {
  await using api = await testApi();
  const nested = (depth: number) => JSON.parse('{"k":'.repeat(depth) + "1" + "}".repeat(depth));
  const fits = await deploy(api, "fits", { context: { initial_state: nested(61) } }); // 64 levels with the body, config and context
  assert.equal(fits.status, 201);
  for (const depth of [62, 3_000, 10_000]) {
    const answer = await deploy(api, "deep", { context: { initial_state: nested(depth) } });
    assert.equal(answer.status, 422, `depth ${depth}`);
    assert.equal(answer.body.error.code, "INVALID_FIELD");
    assert.match(answer.body.error.message, /more than 64 levels deep/);
  }
  const deepText = '{"state":{"k":' + '{"k":'.repeat(10_000) + "1" + "}".repeat(10_002);
  const raw = await api.call("PATCH", "/api/v1/processes/fits/context", {
    body: deepText,
    headers: { "content-type": "application/json" },
  });
  assert.equal(raw.status, 422);
  assert.deepEqual(api.runtime.list().map((p) => p.name), ["fits"]);
});

Deno.test("a ${VAR} that is unset, or holds a value its field refuses, is 422 INVALID_CONFIG naming field and rule", async () => {
  const config = {
    triggers: [
      { type: "cron", cron_expression: "0 8 * * 1-5" },
      { type: "webhook", webhook_path: "/orders", hmac_secret: "${ORDERS_WEBHOOK_SECRET}" },
    ],
  };
  await using unset = await testApi({ allowedEnvVars: ["ORDERS_WEBHOOK_SECRET"], env: () => undefined });
  const missing = await deploy(unset, "orders", config, { start: true });
  assert.equal(missing.status, 422, missing.text);
  assert.equal(missing.body.error.code, "INVALID_CONFIG");
  assert.deepEqual(missing.body.error.details, [
    { field: "config.triggers[1].hmac_secret", expected: "${ORDERS_WEBHOOK_SECRET} is not set" },
  ]);
  assert.equal(unset.runtime.size, 0);

  await using short = await testApi({ allowedEnvVars: ["ORDERS_WEBHOOK_SECRET"], env: () => "short1234" });
  const refused = await deploy(short, "orders", config);
  assert.equal(refused.status, 422, refused.text);
  assert.deepEqual(refused.body.error.details, [
    { field: "config.triggers[1].hmac_secret", expected: "must be at least 16 characters (got 9)" },
  ]);
  assert.ok(!refused.text.includes("short1234"));
});
