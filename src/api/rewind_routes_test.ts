import assert from "node:assert/strict";
import { deploy, testApi } from "../../tests/_api_harness.ts";

const BASE = "/api/v1/processes/keeper";

type Entry = { entry_id: string; entry_type: string; data: Record<string, unknown> };

async function entries(api: Awaited<ReturnType<typeof testApi>>, type?: string): Promise<Entry[]> {
  const query = type ? `?limit=500&type=${type}` : "?limit=500";
  const all: Entry[] = (await api.call("GET", `${BASE}/journal${query}`)).body.entries;
  return all.filter((entry) => entry.entry_type !== "api_request"); // the API's own request log
}

/** A journaled process whose context went {step: 1} then {step: 2}; answers the second write's entry id. */
async function twoWrites(api: Awaited<ReturnType<typeof testApi>>): Promise<string> {
  await deploy(api, "keeper", { journal: { backend: "memory" } }, { start: true });
  await api.call("PATCH", `${BASE}/context`, { json: { state: { step: 1 } } });
  await api.call("PATCH", `${BASE}/context`, { json: { state: { step: 2 } } });
  const writes = await entries(api, "context_update");
  return writes[1].entry_id;
}

Deno.test("GET rewind/plan answers the plan and changes nothing", async () => {
  await using api = await testApi();
  const target = await twoWrites(api);
  const before = await entries(api);
  const plan = await api.call("GET", `${BASE}/rewind/plan?target_entry_id=${target}&mode=code_only`);
  assert.equal(plan.status, 200);
  assert.deepEqual(plan.body, {
    name: "keeper",
    target_entry_id: target,
    mode: "code_only",
    entries_affected: 1,
    conversation_entries_affected: 0,
    code_entries_affected: 1,
    summary: plan.body.summary,
  });
  assert.match(plan.body.summary, /context state/);
  assert.deepEqual(await entries(api), before);
  assert.deepEqual((await api.call("GET", `${BASE}/context`)).body.state, { step: 2 });
  const byDefault = await api.call("GET", `${BASE}/rewind/plan?target_entry_id=${target}`);
  assert.equal(byDefault.body.mode, "both");
});

Deno.test("POST rewind puts the context back to just before the target and journals the actor", async () => {
  await using api = await testApi();
  const target = await twoWrites(api);
  const answer = await api.call("POST", `${BASE}/rewind`, {
    json: { target_entry_id: target, mode: "code_only", actor: "ops-alice" },
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.applied, true);
  assert.equal(answer.body.actor, "ops-alice");
  assert.equal(answer.body.state, "running");
  assert.deepEqual((await api.call("GET", `${BASE}/context`)).body.state, { step: 1 });
  const [rewind] = await entries(api, "rewind");
  assert.equal(rewind.entry_id, answer.body.rewind_entry_id);
  assert.deepEqual(rewind.data, {
    target_entry_id: target,
    mode: "code_only",
    actor: "ops-alice",
    entries_affected: 1,
    conversation_affected: 0,
    code_affected: 1,
  });
  assert.equal((await entries(api, "context_update")).length, 2, "nothing is deleted");
  const transitions = (await entries(api, "state_transition")).map((e) => e.data.to_state);
  assert.deepEqual(
    transitions.slice(-2),
    ["suspended", "running"],
    "suspended for the rewind, resumed after",
  );
});

Deno.test("POST rewind with mode cancel answers the plan and changes or journals nothing", async () => {
  await using api = await testApi();
  const target = await twoWrites(api);
  const before = await entries(api);
  const answer = await api.call("POST", `${BASE}/rewind`, {
    json: { target_entry_id: target, mode: "cancel" },
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.applied, false);
  assert.equal(answer.body.rewind_entry_id, null);
  assert.equal(answer.body.actor, "api");
  assert.deepEqual(await entries(api), before);
  assert.deepEqual((await api.call("GET", `${BASE}/context`)).body.state, { step: 2 });
});

Deno.test("rewind routes refuse an unknown entry, a missing journal, a bad mode and unknown fields", async () => {
  await using api = await testApi();
  const target = await twoWrites(api);
  const code = async (method: string, path: string, json?: unknown) => {
    const answer = await api.call(method, path, json === undefined ? {} : { json });
    return [answer.status, answer.body.error?.code];
  };
  assert.deepEqual(await code("GET", `${BASE}/rewind/plan?target_entry_id=nope`), [404, "ENTRY_NOT_FOUND"]);
  assert.deepEqual(await code("POST", `${BASE}/rewind`, { target_entry_id: "nope" }), [
    404,
    "ENTRY_NOT_FOUND",
  ]);
  assert.deepEqual(await code("GET", `${BASE}/rewind/plan?target_entry_id=${target}&mode=all`), [
    422,
    "INVALID_FIELD",
  ]);
  assert.deepEqual(await code("POST", `${BASE}/rewind`, { target_entry_id: target, mode: "all" }), [
    422,
    "INVALID_FIELD",
  ]);
  assert.deepEqual(await code("POST", `${BASE}/rewind`, {}), [422, "MISSING_FIELD"]);
  assert.deepEqual(await code("GET", `${BASE}/rewind/plan`), [422, "MISSING_FIELD"]);
  assert.deepEqual(await code("POST", `${BASE}/rewind`, { target_entry_id: target, force: true }), [
    422,
    "UNKNOWN_FIELD",
  ]);
  assert.deepEqual(await code("GET", `${BASE}/rewind/plan?target_entry_id=${target}&x=1`), [
    422,
    "UNKNOWN_FIELD",
  ]);
  assert.deepEqual(await code("POST", "/api/v1/processes/ghost/rewind", { target_entry_id: target }), [
    404,
    "PROCESS_NOT_FOUND",
  ]);
  await deploy(api, "plain");
  assert.deepEqual(await code("POST", "/api/v1/processes/plain/rewind", { target_entry_id: target }), [
    400,
    "JOURNAL_DISABLED",
  ]);
  assert.deepEqual(await code("GET", `/api/v1/processes/plain/rewind/plan?target_entry_id=${target}`), [
    400,
    "JOURNAL_DISABLED",
  ]);
});
