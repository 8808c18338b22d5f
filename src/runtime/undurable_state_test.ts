import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { tempDir } from "../_util/temp_dir.ts";
import { testConfig } from "./_test_config.ts";
import { AgentRuntime } from "./runtime.ts";
import { undurableState } from "./undurable_state.ts";

const BUDGET = { enabled: true, max_runs_per_day: 5 };
const MISSION = { enabled: true, objective: "ship it" };

Deno.test("budget and mission without a durable journal restart from zero, and the conversation with them", () => {
  assert.deepEqual(undurableState(testConfig({ budget: BUDGET })), ["budget counters", "conversation"]);
  assert.deepEqual(undurableState(testConfig({ mission: MISSION, journal: { level: "none" } })), [
    "mission progress",
    "conversation",
  ]);
  assert.deepEqual(
    undurableState(testConfig({
      budget: BUDGET,
      mission: MISSION,
      journal: { backend: "memory" },
      context: { conversation_history: false },
    })),
    ["budget counters", "mission progress"],
  );
});

Deno.test("a file or sqlite journal keeps them, and a process without budget or mission is not named", () => {
  assert.deepEqual(undurableState(testConfig({ budget: BUDGET, journal: { backend: "file" } })), []);
  assert.deepEqual(undurableState(testConfig({ mission: MISSION, journal: { backend: "sqlite" } })), []);
  assert.deepEqual(undurableState(testConfig()), []);
});

Deno.test("a deploy with a budget and no journal logs one warning naming the process, what is lost and the fix", async () => {
  await using dir = await tempDir();
  const sink = memorySink();
  const runtime = new AgentRuntime({ dataDir: dir.path, logger: new Logger("t", { sink }) });
  try {
    await runtime.deploy("spender", testConfig({ budget: BUDGET }));
    await runtime.deploy("kept", testConfig({ budget: BUDGET, journal: { level: "checkpoint" } }));
    await runtime.deploy("plain", testConfig());
    const warnings = sink.records.filter((r) => r.level === "warning" && /durable journal/.test(r.message));
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].fields?.process, "spender");
    assert.deepEqual(warnings[0].fields?.restarts_from_zero, ["budget counters", "conversation"]);
    assert.match(warnings[0].message, /spender.*budget counters.*journal: \{level: "checkpoint"\}/);
  } finally {
    await runtime.close();
  }
});
