/**
 * Context state across a runtime restart through the control API handler: kept in the spool
 * (`<queues>/<process>/context.jsonl`) before the PATCH is answered, with no journal at all; a rewind's
 * restored state is what the next runtime brings back; a removed process's state is gone.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { AgentRuntime, FileProcessStore, Spool } from "../src/runtime/mod.ts";
import { tempDir } from "../src/_util/temp_dir.ts";
import { deploy, type TestApi, testApi } from "./_api_harness.ts";

const BASE = "/api/v1/processes/keeper";

/** A control API on a runtime whose spool and process store live in `dir` (shared by every runtime). */
function apiIn(dir: string): Promise<TestApi> {
  return testApi({
    makeRuntime: (options) =>
      new AgentRuntime({
        ...options,
        spool: new Spool({ dir: join(dir, "queues") }),
        store: new FileProcessStore(join(dir, "processes")),
      }),
  });
}

Deno.test("a context PATCH answered 200 without a journal is back after the runtime restarts", async () => {
  await using dir = await tempDir();
  {
    await using api = await apiIn(dir.path);
    const deployed = await deploy(api, "keeper", { context: { initial_state: { step: 0 } } }, {
      start: true,
    });
    assert.equal(deployed.status, 201);
    const patched = await api.call("PATCH", `${BASE}/context`, {
      json: { state: { step: 1, note: "kept" } },
    });
    assert.equal(patched.status, 200);
    // On disk when the answer was sent (a crash now loses nothing), not only after a clean close.
    const log = await Deno.readTextFile(join(dir.path, "queues", "keeper", "context.jsonl"));
    assert.match(log, /"note":"kept"/);
  }
  await using api = await apiIn(dir.path);
  const { restored } = await api.runtime.restore();
  assert.deepEqual(restored, ["keeper"]);
  assert.equal(api.runtime.get("keeper")?.journal, undefined);
  const context = await api.call("GET", `${BASE}/context`);
  assert.deepEqual(context.body.state, { step: 1, note: "kept" });
});

Deno.test("a rewound context is what comes back after a restart (memory journal: only the spool keeps it)", async () => {
  await using dir = await tempDir();
  {
    await using api = await apiIn(dir.path);
    await deploy(api, "keeper", { journal: { backend: "memory" } }, { start: true });
    await api.call("PATCH", `${BASE}/context`, { json: { state: { step: 1 } } });
    await api.call("PATCH", `${BASE}/context`, { json: { state: { step: 2 } } });
    const updates = await api.call("GET", `${BASE}/journal?type=context_update`);
    const target = updates.body.entries[1].entry_id;
    const rewound = await api.call("POST", `${BASE}/rewind`, {
      json: { target_entry_id: target, mode: "both" },
    });
    assert.equal(rewound.status, 200);
    assert.equal(rewound.body.applied, true);
    assert.deepEqual((await api.call("GET", `${BASE}/context`)).body.state, { step: 1 });
  }
  await using api = await apiIn(dir.path);
  await api.runtime.restore();
  assert.deepEqual((await api.call("GET", `${BASE}/context`)).body.state, { step: 1 });
});

Deno.test("a removed process's context is deleted: the name deployed again starts from its initial_state", async () => {
  await using dir = await tempDir();
  await using api = await apiIn(dir.path);
  await deploy(api, "keeper", { context: { initial_state: { step: 0 } } });
  await api.call("PATCH", `${BASE}/context`, { json: { state: { step: 5 } } });
  assert.equal((await api.call("DELETE", BASE)).status, 204);
  await assert.rejects(Deno.stat(join(dir.path, "queues", "keeper")), Deno.errors.NotFound);
  await deploy(api, "keeper", { context: { initial_state: { step: 10 } } });
  assert.deepEqual((await api.call("GET", `${BASE}/context`)).body.state, { step: 10 });
});
