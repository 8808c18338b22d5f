import assert from "node:assert/strict";
import { FIXED_MESSAGES } from "./errors.ts";
import { deploy, testApi } from "../../tests/_api_harness.ts";

const BASE = "/api/v1/processes/vault";
const PLANT = `plant-${crypto.randomUUID()}`;
const SECRETS = { enabled: true, secrets: { API: PLANT, OTHER: "other-literal" }, ttls: { OTHER: 60 } };

Deno.test("GET secrets lists metadata only; the status counts active secrets", async () => {
  await using api = await testApi();
  await deploy(api, "vault", { secrets: SECRETS });
  const before = await api.call("GET", `${BASE}/secrets`);
  assert.equal(before.status, 200);
  assert.deepEqual(before.body.secrets.map((s: { active: boolean }) => s.active), [false, false]);
  await api.call("POST", `${BASE}/start`);
  const listed = await api.call("GET", `${BASE}/secrets`);
  assert.equal(listed.body.name, "vault");
  assert.equal(listed.body.enabled, true);
  assert.equal(listed.body.active_count, 2);
  assert.deepEqual(listed.body.secrets[0], {
    name: "API",
    active: true,
    source: "literal",
    expires_at: null,
    rotated_at: null,
  });
  assert.equal(typeof listed.body.secrets[1].expires_at, "number");
  assert.ok(!listed.text.includes(PLANT));
  const status = await api.call("GET", BASE);
  assert.deepEqual(status.body.secrets, { enabled: true, active: 2 });
});

Deno.test("every secret route is 400 SECRETS_DISABLED without secret scoping", async () => {
  await using api = await testApi();
  await deploy(api, "vault", {}, { start: true });
  const answers = [
    await api.call("GET", `${BASE}/secrets`),
    await api.call("PATCH", `${BASE}/secrets/API`, { json: { value: "x" } }),
    await api.call("DELETE", `${BASE}/secrets`),
  ];
  for (const answer of answers) {
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, "SECRETS_DISABLED");
  }
});

Deno.test("PATCH rotates a secret and answers {name, secret_name, rotated, expires_at} without the value", async () => {
  await using api = await testApi();
  await deploy(api, "vault", { secrets: SECRETS }, { start: true });
  const next = `plant-${crypto.randomUUID()}`;
  const answer = await api.call("PATCH", `${BASE}/secrets/API`, { json: { value: next, ttl: 30 } });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.name, "vault");
  assert.equal(answer.body.secret_name, "API");
  assert.equal(answer.body.rotated, true);
  assert.ok(Math.abs(answer.body.expires_at - (Date.now() / 1000 + 30)) < 5);
  assert.ok(!answer.text.includes(next));
  assert.equal(api.runtime.get("vault")?.secrets.get("API"), next);
  const without = await api.call("PATCH", `${BASE}/secrets/API`, { json: { value: "third" } });
  assert.equal(without.body.expires_at, null);
});

Deno.test("PATCH refuses unknown secrets (404), body shape errors (422) and rotations it cannot apply (400)", async () => {
  await using api = await testApi();
  await deploy(api, "vault", { secrets: SECRETS });
  const hidden = `refused-${crypto.randomUUID()}`;
  const stopped = await api.call("PATCH", `${BASE}/secrets/API`, { json: { value: hidden } });
  assert.equal(stopped.status, 400);
  assert.equal(stopped.body.error.code, "ROTATION_FAILED");
  assert.equal(stopped.body.error.message, FIXED_MESSAGES.ROTATION_FAILED);
  assert.match(stopped.body.error.error_id, /^err_/);
  await api.call("POST", `${BASE}/start`);
  const cases: Array<[string, unknown, number, string]> = [
    ["GHOST", { value: hidden }, 404, "SECRET_NOT_FOUND"],
    ["API", { value: hidden, note: hidden }, 422, "UNKNOWN_FIELD"],
    ["API", {}, 422, "MISSING_FIELD"],
    ["API", { value: 42 }, 422, "INVALID_FIELD"],
    ["API", { value: hidden, ttl: "soon" }, 422, "INVALID_FIELD"],
    ["API", { value: "" }, 400, "ROTATION_FAILED"],
    ["API", { value: hidden, ttl: 0 }, 400, "ROTATION_FAILED"],
  ];
  for (const [name, json, status, code] of cases) {
    const answer = await api.call("PATCH", `${BASE}/secrets/${name}`, { json });
    assert.equal(answer.status, status, JSON.stringify(json));
    assert.equal(answer.body.error.code, code, JSON.stringify(json));
    assert.ok(!answer.text.includes(hidden), "a refused value is never answered");
  }
  assert.equal(api.runtime.get("vault")?.secrets.get("API"), PLANT);
  assert.ok(!JSON.stringify(api.records).includes(hidden), "nor logged");
});

Deno.test("DELETE secrets revokes every value until the next start, which resolves them from config again", async () => {
  await using api = await testApi();
  await deploy(api, "vault", { secrets: SECRETS, journal: { backend: "memory" } }, { start: true });
  await api.call("PATCH", `${BASE}/secrets/API`, { json: { value: "rotated-away" } });
  const answer = await api.call("DELETE", `${BASE}/secrets`);
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { name: "vault", secrets_revoked: true });
  const process = api.runtime.get("vault");
  assert.equal(process?.secrets.get("API"), undefined);
  assert.equal((await api.call("GET", `${BASE}/secrets`)).body.active_count, 0);
  await api.call("POST", `${BASE}/restart`);
  assert.equal(process?.secrets.get("API"), PLANT);
  const journal = await api.call("GET", `${BASE}/journal?type=secret_access`);
  const actions = journal.body.entries.map((e: { data: { action: string } }) => e.data.action);
  assert.deepEqual(actions.slice(0, 2), ["rotate", "revoke"]);
});

Deno.test("secret routes answer 404 PROCESS_NOT_FOUND for an unknown process", async () => {
  await using api = await testApi();
  const routes: Array<[string, string, unknown]> = [
    ["GET", "/secrets", undefined],
    ["PATCH", "/secrets/API", { value: "x" }],
    ["DELETE", "/secrets", undefined],
  ];
  for (const [method, suffix, json] of routes) {
    const answer = await api.call(method, `/api/v1/processes/ghost${suffix}`, { json });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error.code, "PROCESS_NOT_FOUND");
  }
});
