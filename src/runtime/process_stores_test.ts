import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { MemoryJournal, ProcessJournal } from "../journal/mod.ts";
import { AgentProcess } from "./process.ts";
import { isRuntimeError } from "./errors.ts";
import { testConfig } from "./_test_config.ts";

const env = (name: string) => (name === "KEY_VAR" ? "env-value" : undefined);

function build(config: Record<string, unknown>, dataDir?: string) {
  const sink = memorySink();
  const journal = new ProcessJournal(new MemoryJournal(), { process: "p", level: "full" });
  const process = new AgentProcess({
    name: "p",
    config: testConfig(config),
    env,
    journal,
    logger: new Logger("t", { sink }),
    dataDir,
  });
  return { process, records: sink.records, journal };
}

const secrets = (extra: Record<string, unknown> = {}) => ({
  secrets: { enabled: true, secrets: { LIT: "literal-value", KEY: "${KEY_VAR}" }, ...extra },
});

Deno.test("secrets resolve at start, count in the status, and a stop revokes them; rotations do not survive", async () => {
  const { process } = build(secrets());
  assert.deepEqual(process.status().secrets, { enabled: true, active: 0 });
  await process.start();
  assert.equal(process.secrets.get("KEY"), "env-value");
  assert.deepEqual(process.status().secrets, { enabled: true, active: 2 });
  await process.secrets.rotate("LIT", "rotated-value");
  await process.stop();
  assert.equal(process.secrets.get("LIT"), undefined);
  assert.equal(process.status().secrets.active, 0);
  await process.restart();
  assert.equal(process.secrets.get("LIT"), "literal-value");
  await process.stop();
});

Deno.test("with revoke_on_stop false the values (and rotations) survive a stop; close revokes anyway", async () => {
  const { process } = build(secrets({ revoke_on_stop: false }));
  await process.start();
  await process.secrets.rotate("LIT", "rotated-value");
  await process.stop();
  assert.equal(process.secrets.get("LIT"), "rotated-value");
  await process.start();
  assert.equal(process.secrets.get("LIT"), "rotated-value");
  await process.close();
  assert.equal(process.state, "stopped");
  assert.equal(process.secrets.get("LIT"), undefined);
});

Deno.test("an unresolvable secret fails the start; the log names the variable but holds no value", async () => {
  const { process, records } = build({
    secrets: { enabled: true, secrets: { LIT: "literal-value", GONE: "${GONE_VAR}" } },
  });
  await assert.rejects(process.start(), (e) => isRuntimeError(e, "START_FAILED"));
  assert.equal(process.state, "failed");
  const log = JSON.stringify(records);
  assert.match(log, /GONE_VAR/);
  assert.doesNotMatch(log, /literal-value/);
});

Deno.test("memory is open while started and closed at stop; the file store keeps it across starts", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "agentry_stores_" });
  try {
    const { process } = build({ context: { memory_provider: "file" } }, dataDir);
    assert.equal(process.memory, undefined);
    await process.start();
    const memoryOf = (p: AgentProcess) => p.memory;
    const id = await memoryOf(process)?.add("remember the milk");
    await process.stop();
    assert.equal(process.memory, undefined);
    await process.start();
    assert.equal((await memoryOf(process)?.search("milk"))?.[0].id, id);
    await process.stop();
    const none = build({});
    await none.process.start();
    assert.equal(none.process.memory, undefined);
    await none.process.stop();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("the context lives across starts and close resets it (journaled)", async () => {
  const { process, journal } = build({ context: { initial_state: { n: 0 } } });
  await process.context.write({ n: 1 }, "api");
  await process.start();
  await process.stop();
  await process.start();
  assert.deepEqual(process.context.snapshot(), { n: 1 });
  await process.close();
  assert.deepEqual(process.context.snapshot(), { n: 0 });
  const updates = await journal.read({ type: "context_update" });
  assert.deepEqual(updates.map((e) => e.data.source), ["api", "system"]);
});
