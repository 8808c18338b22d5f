import assert from "node:assert/strict";
import { test } from "node:test";
import { envOf } from "../_test_parse.ts";
import { McpcastError } from "../errors.ts";
import { petPlan } from "./_test_eval.ts";
import { EVAL_KEY, evalEnvironment } from "./eval_env.ts";

test("api-key plans get the eval client key and tenant credential, existing entries kept", async () => {
  const { plan } = await petPlan({ auth: "api-key" });
  const base = envOf({
    MCPCAST_CLIENT_KEYS: '{"k-real": {"client_id": "ops", "tenant_id": "acme"}}',
    MCPCAST_UPSTREAM_TOKENS: '{"acme": "tok-acme"}',
  });
  const { env, headers } = evalEnvironment(plan, base);
  assert.deepEqual(JSON.parse(env("MCPCAST_CLIENT_KEYS")!), {
    "k-real": { client_id: "ops", tenant_id: "acme" },
    [EVAL_KEY]: { client_id: EVAL_KEY, tenant_id: EVAL_KEY },
  });
  assert.deepEqual(JSON.parse(env("MCPCAST_UPSTREAM_TOKENS")!), { acme: "tok-acme", [EVAL_KEY]: EVAL_KEY });
  assert.deepEqual(headers, { "x-api-key": EVAL_KEY });
  assert.equal(base("MCPCAST_CLIENT_KEYS")?.includes(EVAL_KEY), false); // the caller's lookup is untouched
});

test("an eval tenant already configured is not overwritten, and MCPCAST_EVAL_AUTHORIZATION is its credential", async () => {
  const { plan } = await petPlan({ auth: "api-key" });
  const own = evalEnvironment(plan, envOf({ MCPCAST_EVAL_AUTHORIZATION: "tok-live-1234" }));
  assert.deepEqual(JSON.parse(own.env("MCPCAST_UPSTREAM_TOKENS")!), { [EVAL_KEY]: "tok-live-1234" });
  const kept = evalEnvironment(plan, envOf({ MCPCAST_UPSTREAM_TOKENS: `{"${EVAL_KEY}": "mine"}` }));
  assert.equal(kept.env("MCPCAST_UPSTREAM_TOKENS"), `{"${EVAL_KEY}": "mine"}`);
});

test("env-token plans get a placeholder upstream token only when none is set", async () => {
  const { plan } = await petPlan({ auth: "env-token" });
  assert.equal(evalEnvironment(plan, envOf()).env("MCPCAST_UPSTREAM_TOKEN"), EVAL_KEY);
  assert.equal(
    evalEnvironment(plan, envOf({ MCPCAST_EVAL_AUTHORIZATION: "tok-live" })).env("MCPCAST_UPSTREAM_TOKEN"),
    "tok-live",
  );
  const set = evalEnvironment(
    plan,
    envOf({ MCPCAST_UPSTREAM_TOKEN: "tok-real", MCPCAST_EVAL_AUTHORIZATION: "x" }),
  );
  assert.equal(set.env("MCPCAST_UPSTREAM_TOKEN"), "tok-real");
  assert.deepEqual(set.headers, {});
});

test("passthrough plans send an authorization header; the caller's headers replace the defaults", async () => {
  const { plan } = await petPlan({ auth: "passthrough" });
  assert.deepEqual(evalEnvironment(plan, envOf()).headers, { authorization: `Bearer ${EVAL_KEY}` });
  assert.deepEqual(
    evalEnvironment(plan, envOf({ MCPCAST_EVAL_AUTHORIZATION: "Bearer live" })).headers,
    { authorization: "Bearer live" },
  );
  assert.deepEqual(evalEnvironment(plan, envOf(), { "x-trace": "1" }).headers, { "x-trace": "1" });
});

test("MCPCAST_EVAL_HEADERS gives the MCP headers unless the caller passes some; a malformed value is refused", async () => {
  const { plan } = await petPlan({ auth: "api-key" });
  const env = envOf({ MCPCAST_EVAL_HEADERS: '{"x-api-key": "k-ops-1"}' });
  assert.deepEqual(evalEnvironment(plan, env).headers, { "x-api-key": "k-ops-1" });
  assert.deepEqual(evalEnvironment(plan, env, { "x-api-key": "k-2" }).headers, { "x-api-key": "k-2" });
  for (const bad of ["[1]", '{"a": 1}', "not json"]) {
    assert.throws(
      () => evalEnvironment(plan, envOf({ MCPCAST_EVAL_HEADERS: bad })),
      (error) =>
        error instanceof McpcastError && !error.message.includes(bad) &&
        /MCPCAST_EVAL_HEADERS/.test(error.message),
    );
  }
});
