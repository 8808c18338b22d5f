import assert from "node:assert/strict";
import { join } from "node:path";
import { CONTEXT_MAX_BYTES } from "../runtime/mod.ts";
import { deploy, testApi } from "../../tests/_api_harness.ts";

const PATH = "/api/v1/processes/keeper/context";

Deno.test("GET context answers the state and which keys are writable", async () => {
  await using api = await testApi();
  await deploy(api, "keeper", { context: { initial_state: { mood: "calm" } } });
  const answer = await api.call("GET", PATH);
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, {
    name: "keeper",
    state: { mood: "calm" },
    writable_keys: null,
    all_keys_writable: true,
  });
  await deploy(api, "locked", { context: { writable_keys: [] } });
  const locked = await api.call("GET", "/api/v1/processes/locked/context");
  assert.deepEqual(locked.body, { name: "locked", state: {}, writable_keys: [], all_keys_writable: false });
});

Deno.test("PATCH context writes every key, deletes null ones, answers the new view and journals source api", async () => {
  await using api = await testApi();
  await deploy(api, "keeper", {
    journal: { backend: "memory" },
    context: { writable_keys: ["status", "old"], initial_state: { old: 1 } },
  });
  const answer = await api.call("PATCH", PATH, { json: { state: { status: { ok: true }, old: null } } });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, {
    name: "keeper",
    state: { status: { ok: true } },
    writable_keys: ["status", "old"],
    all_keys_writable: false,
  });
  assert.deepEqual((await api.call("GET", PATH)).body.state, { status: { ok: true } });
  const journal = await api.call("GET", "/api/v1/processes/keeper/journal?type=context_update");
  assert.deepEqual(journal.body.entries.map((e: { data: unknown }) => e.data), [
    { values: { status: { ok: true }, old: null }, source: "api" },
  ]);
});

Deno.test("PATCH context with any non-writable key is 403 WRITE_DENIED naming every refused key; nothing is written", async () => {
  await using api = await testApi();
  await deploy(api, "keeper", { context: { writable_keys: ["status"], initial_state: { status: "idle" } } });
  const answer = await api.call("PATCH", PATH, { json: { state: { status: "busy", owner: "x", level: 2 } } });
  assert.equal(answer.status, 403);
  assert.equal(answer.body.error.code, "WRITE_DENIED");
  assert.deepEqual(answer.body.error.details.map((d: { field: string }) => d.field), [
    "state.owner",
    "state.level",
  ]);
  assert.match(answer.body.error.message, /owner, level/);
  assert.deepEqual((await api.call("GET", PATH)).body.state, { status: "idle" });
});

Deno.test("PATCH context refuses other fields (UNKNOWN_FIELD), no or empty state (MISSING_FIELD), a non-object (INVALID_FIELD)", async () => {
  await using api = await testApi();
  await deploy(api, "keeper");
  const cases: Array<[unknown, string, string]> = [
    [{ state: { a: 1 }, extra: true }, "UNKNOWN_FIELD", "extra"],
    [{}, "MISSING_FIELD", "state"],
    [{ state: {} }, "MISSING_FIELD", "state"],
    [{ state: [1] }, "INVALID_FIELD", "state"],
    [{ state: "a=1" }, "INVALID_FIELD", "state"],
    [{ state: null }, "INVALID_FIELD", "state"],
  ];
  for (const [json, code, field] of cases) {
    const answer = await api.call("PATCH", PATH, { json });
    assert.equal(answer.status, 422, JSON.stringify(json));
    assert.equal(answer.body.error.code, code, JSON.stringify(json));
    assert.equal(answer.body.error.details[0].field, field);
  }
  assert.deepEqual((await api.call("GET", PATH)).body.state, {});
});

Deno.test("PATCH context beyond the state size bound is 422 INVALID_FIELD and writes nothing", async () => {
  await using api = await testApi();
  await deploy(api, "keeper");
  const answer = await api.call("PATCH", PATH, {
    json: { state: { a: 1, big: "x".repeat(CONTEXT_MAX_BYTES) } },
  });
  assert.equal(answer.status, 422);
  assert.equal(answer.body.error.code, "INVALID_FIELD");
  assert.deepEqual((await api.call("GET", PATH)).body.state, {});
});

Deno.test("context routes answer 404 for an unknown process and 401 without the token", async () => {
  await using api = await testApi();
  for (const method of ["GET", "PATCH"]) {
    const json = method === "PATCH" ? { state: { a: 1 } } : undefined;
    const missing = await api.call(method, "/api/v1/processes/ghost/context", { json });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, "PROCESS_NOT_FOUND");
    const anonymous = await api.call(method, "/api/v1/processes/ghost/context", { json, token: null });
    assert.equal(anonymous.status, 401);
  }
});

Deno.test("memory_persist_directory given alone is path-checked: 403 PATH_NOT_ALLOWED outside the data dir", async () => {
  await using api = await testApi();
  const outside = await deploy(api, "mem", {
    context: { memory_persist_directory: "/tmp/agentry-elsewhere" },
  });
  assert.equal(outside.status, 403);
  assert.equal(outside.body.error.code, "PATH_NOT_ALLOWED");
  assert.deepEqual(outside.body.error.details.map((d: { field: string }) => d.field), [
    "config.context.memory_persist_directory",
  ]);
  const inside = await deploy(api, "mem", { context: { memory_persist_directory: join(api.dataDir, "m") } }, {
    start: true,
  });
  assert.equal(inside.status, 201);
  assert.equal(api.runtime.get("mem")?.config.context.memory_provider, "file");
  await api.runtime.get("mem")?.memory?.add("kept");
  assert.ok((await Deno.stat(join(api.dataDir, "m", "memories.jsonl"))).isFile);
});
