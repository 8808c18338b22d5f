import assert from "node:assert/strict";
import { deploy, testApi, TOKEN } from "../../tests/_api_harness.ts";
import { Logger, memorySink } from "../log.ts";
import { AgentRuntime, type Invoker, type ProcessEvent, RunBlockedError } from "../runtime/mod.ts";
import { runsOf } from "../runtime/process.ts";
import { RuntimeClient } from "./client.ts";
import { ControlServer } from "./server.ts";

const BASE = "/api/v1/processes/p/dead-letters";

function event(id: string): ProcessEvent {
  return {
    trigger_id: "t-1",
    trigger_type: "custom",
    event_id: id,
    timestamp: "2026-01-01T00:00:00.000Z",
    payload: { id },
    metadata: {},
  };
}

/** Runs are blocked (dead-lettered) until `open()`; then they succeed and are counted. */
function gatedInvoker() {
  let open = false;
  const done: string[] = [];
  const invoker: Invoker = (run) => {
    if (!open) return Promise.reject(new RunBlockedError("blocked by test"));
    done.push(run.event.event_id);
    return Promise.resolve({ response: "ok" });
  };
  return { invoker, done, open: () => open = true };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

Deno.test("GET lists dead letters oldest first; redeliver queues them again; DELETE clears them", async () => {
  const gate = gatedInvoker();
  await using api = await testApi({ makeRuntime: (o) => new AgentRuntime({ ...o, invoker: gate.invoker }) });
  await deploy(api, "p", {}, { start: true });
  const process = api.runtime.get("p")!;
  for (const id of ["a", "b", "c"]) runsOf(process).inject(event(id));
  await until(() => process.deadLetters.size === 3, "three letters");

  const listed = await api.call("GET", BASE);
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.dead_letters.map((l: { event: ProcessEvent }) => l.event.event_id), [
    "a",
    "b",
    "c",
  ]);
  assert.deepEqual({ ...listed.body.dead_letters[0], dead_lettered_at: "t" }, {
    event: event("a"),
    reason: "blocked by test",
    error: "RunBlockedError: blocked by test",
    attempts: 1,
    dead_lettered_at: "t",
  });
  assert.deepEqual([listed.body.name, listed.body.count, listed.body.total], ["p", 3, 3]);

  gate.open();
  const redelivered = await api.call("POST", `${BASE}/redeliver`, { json: { event_ids: ["c", "zzz"] } });
  assert.deepEqual([redelivered.status, redelivered.body], [200, { name: "p", redelivered: 1 }]);
  await until(() => gate.done.length === 1, "the redelivered run");
  assert.deepEqual(gate.done, ["c"]);
  const after = (await api.call("GET", BASE)).body;
  assert.deepEqual([after.count, after.total], [2, 3], "total counts letters ever added");

  const cleared = await api.call("DELETE", BASE);
  assert.deepEqual([cleared.status, cleared.body], [200, { name: "p", dead_letters_cleared: 2 }]);
  assert.equal((await api.call("GET", BASE)).body.count, 0);
  assert.deepEqual((await api.call("POST", `${BASE}/redeliver`)).body, { name: "p", redelivered: 0 });
});

Deno.test("redeliver checks its body and refuses a process not started; unknown processes are 404", async () => {
  await using api = await testApi();
  await deploy(api, "p", {}, { start: true });
  const process = api.runtime.get("p")!;
  runsOf(process).inject(event("a")); // no runner: dead-lettered
  await until(() => process.deadLetters.size === 1, "the letter");
  const cases: Array<[unknown, string]> = [
    [{ event_ids: ["a"], force: true }, "UNKNOWN_FIELD"],
    [{ event_ids: "a" }, "INVALID_TYPE"],
    [{ event_ids: [1] }, "INVALID_TYPE"],
  ];
  for (const [json, code] of cases) {
    const refused = await api.call("POST", `${BASE}/redeliver`, { json });
    assert.deepEqual([refused.status, refused.body.error.code], [422, code], JSON.stringify(json));
  }
  await api.call("POST", "/api/v1/processes/p/stop");
  const stopped = await api.call("POST", `${BASE}/redeliver`, { json: {} });
  assert.deepEqual([stopped.status, stopped.body.error.code], [409, "PROCESS_NOT_RUNNING"]);
  assert.match(stopped.body.error.message, /stopped/);
  assert.equal(process.deadLetters.size, 1, "the letters stay");
  for (const method of ["GET", "DELETE"]) {
    assert.equal((await api.call(method, "/api/v1/processes/nope/dead-letters")).status, 404);
  }
  assert.equal((await api.call("POST", "/api/v1/processes/nope/dead-letters/redeliver")).status, 404);
});

Deno.test("the client's dead-letter methods reach their routes over a socket", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "agentry_dead_letters_" });
  const runtime = new AgentRuntime({ dataDir, logger: new Logger("t", { sink: memorySink() }) });
  const server = new ControlServer(runtime, {
    port: 0,
    host: "127.0.0.1",
    authToken: TOKEN,
    env: () => undefined,
  });
  await server.start();
  try {
    await using client = new RuntimeClient({ baseUrl: server.url, token: TOKEN });
    await client.deploy("p", {}, { start: true });
    runsOf(runtime.get("p")!).inject(event("a"));
    await until(() => runtime.get("p")!.deadLetters.size === 1, "the letter");
    const listed = await client.listDeadLetters("p");
    assert.deepEqual(listed.dead_letters.map((l) => `${l.event.event_id}:${l.reason}`), ["a:no runner"]);
    assert.deepEqual(await client.redeliverDeadLetters("p", { eventIds: ["a"] }), {
      name: "p",
      redelivered: 1,
    });
    await until(() => runtime.get("p")!.deadLetters.size === 1, "the letter again (still no runner)");
    assert.deepEqual(await client.clearDeadLetters("p"), { name: "p", dead_letters_cleared: 1 });
  } finally {
    await server.stop();
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
