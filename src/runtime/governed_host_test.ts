import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { AgentRuntime } from "./runtime.ts";
import { MemoryProcessStore } from "./process_store.ts";
import { runsOf } from "./process.ts";
import { governedHost } from "./governed_host.ts";
import { Escalator } from "./escalator.ts";
import { testConfig } from "./_test_config.ts";

Deno.test("a governed suspend or stop tells the runtime only once it happened", async () => {
  const told: string[] = [];
  const process = {
    name: "p",
    processId: "id",
    config: testConfig({}),
    journal: undefined,
    resolveReferences: <T>(value: T) => value,
    suspend: (reason: string) =>
      reason === "refuse" ? Promise.reject(new Error("no")) : Promise.resolve("suspended"),
  };
  const host = governedHost(process, {
    stop: () => Promise.resolve("stopped"),
    onGovernedState: (s) => told.push(s),
    escalate: (target, payload) => new Escalator({ process: "p" }).escalate(target, payload),
  });
  await host.suspend("budget exceeded: max_runs_per_day");
  await host.stop("mission complete");
  await assert.rejects(host.suspend("refuse"));
  assert.deepEqual(told, ["suspended", "stopped"]);
});

Deno.test("a process paused by its budget is stored as suspended, so a restart brings it back suspended", async () => {
  const store = new MemoryProcessStore();
  const dataDir = await Deno.makeTempDir();
  const raw = { budget: { enabled: true, max_runs_per_day: 1, on_exceeded: "pause" } };
  const runtime = new AgentRuntime({
    dataDir,
    store,
    logger: new Logger("t", { sink: memorySink() }),
    invoker: () => Promise.resolve({ response: "ok" }),
  });
  try {
    const process = await runtime.deploy("capped", testConfig(raw), { persistConfig: raw, start: true });
    for (const id of ["e1", "e2"]) {
      await runsOf(process).deliver({
        trigger_id: "manual",
        trigger_type: "manual",
        event_id: id,
        timestamp: new Date().toISOString(),
        payload: {},
        metadata: {},
      });
    }
    for (let i = 0; i < 200 && process.state !== "suspended"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(process.state, "suspended");
    for (let i = 0; i < 100; i++) {
      const { records } = await store.list();
      if (records[0]?.desired_state === "suspended") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal((await store.list()).records[0].desired_state, "suspended");
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
