import assert from "node:assert/strict";
import { CLIENT, deploy, type TestApi, testApi } from "../../tests/_api_harness.ts";

interface Entry {
  entry_id: string;
  entry_type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const MEMORY = { journal: { backend: "memory" } };

async function entries(api: TestApi, query = "", name = "j"): Promise<Entry[]> {
  const answer = await api.call("GET", `/api/v1/processes/${name}/journal${query}`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body.entries;
}

/** Deploys `j` with a memory journal and writes `count` `note` entries `{i}` directly. */
async function withNotes(api: TestApi, count: number): Promise<void> {
  assert.equal((await deploy(api, "j", MEMORY)).status, 201);
  const journal = api.runtime.get("j")?.journal;
  assert.ok(journal);
  for (let i = 0; i < count; i++) await journal.record("note", { i });
}

const notes = (list: Entry[]) => list.filter((e) => e.entry_type === "note").map((e) => e.data.i);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

Deno.test("without a journal, GET journal answers {name, entries: [], journal_enabled: false}", async () => {
  await using api = await testApi();
  await deploy(api, "plain", {}, { start: true });
  const answer = await api.call("GET", "/api/v1/processes/plain/journal");
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { name: "plain", entries: [], journal_enabled: false });
});

Deno.test("a memory journal shows state transitions and api_request entries, oldest first", async () => {
  await using api = await testApi();
  await deploy(api, "j", MEMORY, { start: true });
  await api.call("POST", "/api/v1/processes/j/stop");
  const answer = await api.call("GET", "/api/v1/processes/j/journal");
  assert.equal(answer.body.name, "j");
  assert.equal(answer.body.journal_enabled, true);
  const list: Entry[] = answer.body.entries;
  const transitions = list.filter((e) => e.entry_type === "state_transition")
    .map((e) => `${e.data.from_state}>${e.data.to_state}`);
  assert.deepEqual(transitions, [
    "created>starting",
    "starting>running",
    "running>stopping",
    "stopping>stopped",
  ]);
  assert.deepEqual(list.map((e) => e.entry_type), [
    "state_transition",
    "state_transition",
    "api_request",
    "state_transition",
    "state_transition",
    "api_request",
  ]);
  const times = list.map((e) => Date.parse(e.timestamp));
  assert.deepEqual([...times].sort((a, b) => a - b), times);
  for (const entry of list) {
    assert.deepEqual(Object.keys(entry).sort(), ["data", "entry_id", "entry_type", "timestamp"]);
  }
  assert.equal(new Set(list.map((e) => e.entry_id)).size, list.length);
});

Deno.test("an api_request entry holds {method, route, params, status, client}", async () => {
  await using api = await testApi();
  await deploy(api, "j", MEMORY);
  await api.call("POST", "/api/v1/processes/j/start");
  const requests = await entries(api, "?type=api_request");
  assert.deepEqual(requests.map((e) => e.data), [
    { method: "POST", route: "/api/v1/processes", params: {}, status: 201, client: CLIENT },
    {
      method: "POST",
      route: "/api/v1/processes/{name}/start",
      params: { name: "j" },
      status: 200,
      client: CLIENT,
    },
  ]);
});

Deno.test("reads and refused requests are not journaled", async () => {
  await using api = await testApi();
  await deploy(api, "j", MEMORY);
  const before = (await entries(api)).length;
  await api.call("GET", "/api/v1/processes/j");
  await api.call("GET", "/api/v1/processes/j/metrics");
  await api.call("GET", "/api/v1/processes/j/journal");
  assert.equal((await api.call("POST", "/api/v1/processes/j/suspend")).status, 400);
  assert.equal((await api.call("POST", "/api/v1/processes/j/stop", { json: { now: 1 } })).status, 422);
  assert.equal((await api.call("POST", "/api/v1/processes/j/stop", { token: "wrong" })).status, 401);
  assert.equal((await entries(api)).length, before);
});

Deno.test("limit answers the newest entries, oldest first; the default is 50", async () => {
  await using api = await testApi();
  await withNotes(api, 60);
  const all = await entries(api);
  assert.equal(all.length, 50);
  assert.deepEqual(notes(all), range(10, 60));
  assert.deepEqual(notes(await entries(api, "?limit=3")), [57, 58, 59]);
  const one = await entries(api, "?limit=1");
  assert.deepEqual(notes(one), [59]);
  const most = await entries(api, "?limit=500");
  assert.equal(most.length, 61);
  assert.equal(most[0].entry_type, "api_request");
});

Deno.test("limit must be an integer from 1 to 500: anything else is 422 INVALID_FIELD", async () => {
  await using api = await testApi();
  await withNotes(api, 1);
  for (const limit of ["0", "501", "abc", "-1", "2.5", "", "1e2"]) {
    const answer = await api.call("GET", `/api/v1/processes/j/journal?limit=${limit}`);
    assert.equal(answer.status, 422, `limit=${limit}`);
    assert.equal(answer.body.error.code, "INVALID_FIELD", `limit=${limit}`);
  }
});

Deno.test("type keeps only entries of that entry_type", async () => {
  await using api = await testApi();
  await withNotes(api, 5);
  await api.call("POST", "/api/v1/processes/j/start");
  const requests = await entries(api, "?type=api_request");
  assert.equal(requests.length, 2);
  assert.ok(requests.every((e) => e.entry_type === "api_request"));
  assert.deepEqual(notes(await entries(api, "?type=note&limit=2")), [3, 4]);
  assert.deepEqual(await entries(api, "?type=no_such_type"), []);
});

Deno.test("an unknown query parameter is 422 UNKNOWN_FIELD", async () => {
  await using api = await testApi();
  await withNotes(api, 1);
  for (const query of ["?since=1", "?lmit=5", "?limit=5&entry_type=note"]) {
    const answer = await api.call("GET", `/api/v1/processes/j/journal${query}`);
    assert.equal(answer.status, 422, query);
    assert.equal(answer.body.error.code, "UNKNOWN_FIELD", query);
  }
});
