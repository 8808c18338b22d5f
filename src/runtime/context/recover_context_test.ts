import assert from "node:assert/strict";
import { join } from "node:path";
import { Logger, memorySink } from "../../log.ts";
import type { JournalEntry } from "../../journal/mod.ts";
import { AgentRuntime } from "../runtime.ts";
import { testConfig } from "../_test_config.ts";
import { replayContext } from "./recover_context.ts";

let seq = 0;
function entry(entry_type: string, data: Record<string, unknown>): JournalEntry {
  return { entry_id: String(seq++), process: "p", entry_type, timestamp: new Date().toISOString(), data };
}

Deno.test("replay starts from the last checkpoint's context and applies the later context writes in order", () => {
  const entries = [
    entry("context_update", { values: { before: 1 }, source: "api" }),
    entry("checkpoint", { context: { old: true } }),
    entry("checkpoint", { context: { a: 1, gone: 2 }, conversation: [] }),
    entry("state_transition", { to_state: "running" }),
    entry("context_update", { values: { b: 2, gone: null }, source: "agent" }),
    entry("context_update", { values: { a: 3 }, source: "api" }),
  ];
  assert.deepEqual(replayContext(entries, { init: 0 }), { a: 3, b: 2 });
});

Deno.test("without a checkpoint replay starts from initial_state; a reset entry starts it over", () => {
  const initial = { init: 0 };
  assert.deepEqual(
    replayContext([entry("context_update", { values: { a: 1 }, source: "api" })], initial),
    { init: 0, a: 1 },
  );
  const reset = [
    entry("checkpoint", { context: { a: 1 } }),
    entry("context_update", { values: {}, source: "system", reset: true }),
    entry("context_update", { values: { b: 1 }, source: "api" }),
  ];
  assert.deepEqual(replayContext(reset, initial), { init: 0, b: 1 });
  assert.deepEqual(initial, { init: 0 });
  assert.equal(replayContext([entry("state_transition", {})], initial), undefined);
});

Deno.test("with a file journal the context survives a runtime restart and is forgotten after removal", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "agentry_context_" });
  const logger = new Logger("t", { sink: memorySink() });
  const config = testConfig({ journal: { backend: "file" }, context: { initial_state: { n: 0 } } });
  try {
    const first = new AgentRuntime({ dataDir, logger });
    const process = await first.deploy("keeper", config, { start: true });
    await process.context.write({ n: 1, note: "kept" }, "api");
    await process.journal?.record("checkpoint", { context: { n: 2, note: "kept" }, conversation: [] });
    await process.context.write({ n: 3 }, "agent");
    await first.close();
    assert.ok((await Deno.stat(join(dataDir, "journal"))).isDirectory);

    const second = new AgentRuntime({ dataDir, logger });
    const again = await second.deploy("keeper", config);
    assert.deepEqual(again.context.snapshot(), { n: 3, note: "kept" });
    await second.remove("keeper");
    await second.close();

    const third = new AgentRuntime({ dataDir, logger });
    assert.deepEqual((await third.deploy("keeper", config)).context.snapshot(), { n: 0 });
    await third.close();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
