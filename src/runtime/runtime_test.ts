import assert from "node:assert/strict";
import { join } from "node:path";
import { Logger, memorySink } from "../log.ts";
import { AgentRuntime } from "./runtime.ts";
import { RuntimeError, type RuntimeErrorCode } from "./errors.ts";
import { FileProcessStore, MemoryProcessStore } from "./process_store.ts";
import { testConfig } from "./_test_config.ts";

const quiet = () => new Logger("test", { sink: memorySink() });
const code = (expected: RuntimeErrorCode) => (e: unknown) => e instanceof RuntimeError && e.code === expected;

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("deploy registers a process once; a second deploy of the name is refused", async () => {
  const runtime = new AgentRuntime({ logger: quiet() });
  const process = await runtime.deploy("a", testConfig());
  assert.equal(process.state, "created");
  await assert.rejects(runtime.deploy("a", testConfig()), code("PROCESS_EXISTS"));
  assert.deepEqual(runtime.list(), [{ name: "a", state: "created", process_id: process.processId }]);
  assert.equal(runtime.status().process_count, 1);
  assert.equal(runtime.status().processes.a.state, "created");
  await runtime.close();
});

Deno.test("a failed start keeps the process registered in failed", async () => {
  const runtime = new AgentRuntime({ logger: quiet() });
  const config = testConfig({ secrets: { enabled: true, secrets: { K: "${MISSING_VAR}" } } });
  await assert.rejects(runtime.deploy("a", config, { start: true }), code("START_FAILED"));
  assert.equal(runtime.get("a")?.state, "failed");
  await runtime.close();
});

Deno.test("operations on unknown names raise PROCESS_NOT_FOUND", async () => {
  const runtime = new AgentRuntime({ logger: quiet() });
  await assert.rejects(runtime.start("nope"), code("PROCESS_NOT_FOUND"));
  await assert.rejects(runtime.remove("nope"), code("PROCESS_NOT_FOUND"));
});

Deno.test("file journals live under the data dir by default, one file per process name", async () => {
  await withDir(async (dir) => {
    const runtime = new AgentRuntime({ dataDir: dir, logger: quiet() });
    await runtime.deploy("a", testConfig({ journal: {} }), { start: true });
    await runtime.close();
    const text = await Deno.readTextFile(join(dir, "journal", "a.jsonl"));
    assert.match(text, /"entry_type":"state_transition"/);
  });
});

Deno.test("a journal that cannot be opened makes the deploy fail with DEPLOY_FAILED", async () => {
  await withDir(async (dir) => {
    const blocker = join(dir, "file");
    await Deno.writeTextFile(blocker, "not a directory");
    const runtime = new AgentRuntime({ dataDir: dir, logger: quiet() });
    await assert.rejects(
      runtime.deploy("a", testConfig({ journal: { backend: "sqlite", path: blocker } })),
      code("DEPLOY_FAILED"),
    );
    assert.equal(runtime.get("a"), undefined);
    await runtime.close();
  });
});

Deno.test("start-all and stop-all act on every process and log failures instead of raising", async () => {
  const runtime = new AgentRuntime({ logger: quiet() });
  await runtime.deploy("ok", testConfig());
  await runtime.deploy("bad", testConfig({ secrets: { enabled: true, secrets: { K: "${NOPE}" } } }));
  await runtime.startAll();
  assert.equal(runtime.get("ok")?.state, "running");
  assert.equal(runtime.get("bad")?.state, "failed");
  await runtime.stopAll();
  assert.equal(runtime.get("ok")?.state, "stopped");
  assert.equal(runtime.get("bad")?.state, "failed");
  await runtime.close();
});

Deno.test("remove stops the process and forgets it", async () => {
  const runtime = new AgentRuntime({ logger: quiet() });
  const process = await runtime.deploy("a", testConfig(), { start: true });
  await runtime.remove("a");
  assert.equal(process.state, "stopped");
  assert.equal(runtime.get("a"), undefined);
});

Deno.test("stored deployments come back after a restart in the state the operator asked for", async () => {
  await withDir(async (dir) => {
    const store = () => new FileProcessStore(join(dir, "processes"));
    const first = new AgentRuntime({ dataDir: dir, logger: quiet(), store: store() });
    const persist = (instructions: string) => ({ instructions });
    const a = await first.deploy("a", testConfig(), { persistConfig: persist("a"), start: true });
    await first.deploy("b", testConfig(), { persistConfig: persist("b"), start: true });
    await first.suspend("b");
    await first.deploy("c", testConfig(), { persistConfig: persist("c") });
    await first.deploy("d", testConfig(), { persistConfig: persist("d"), start: true });
    await first.remove("d");
    await first.deploy("lib", testConfig(), { start: true });
    await first.close();

    const second = new AgentRuntime({ dataDir: dir, logger: quiet(), store: store() });
    const { restored, skipped } = await second.restore();
    assert.deepEqual(restored, ["a", "b", "c"]);
    assert.deepEqual(skipped, []);
    assert.equal(second.get("a")?.state, "running");
    assert.equal(second.get("a")?.processId, a.processId);
    assert.equal(second.get("a")?.createdAt, a.createdAt);
    assert.equal(second.get("a")?.config.instructions, "a");
    assert.equal(second.get("b")?.state, "suspended");
    assert.equal(second.get("c")?.state, "created");
    assert.equal(second.get("lib"), undefined);
    await second.close();
  });
});

Deno.test("restore skips records whose name is taken or whose config no longer parses", async () => {
  const store = new MemoryProcessStore();
  await store.save({ name: "taken", process_id: "1", created_at: 1, config: {}, desired_state: "running" });
  await store.save({
    name: "stale",
    process_id: "2",
    created_at: 1,
    config: { nope: 1 },
    desired_state: "running",
  });
  const sink = memorySink();
  const runtime = new AgentRuntime({ logger: new Logger("t", { sink }), store });
  await runtime.deploy("taken", testConfig());
  const { restored, skipped } = await runtime.restore();
  assert.deepEqual(restored, []);
  assert.deepEqual(skipped.sort(), ["stale", "taken"]);
  assert.equal(sink.records.filter((r) => r.level === "warning").length, 2);
  assert.equal(runtime.get("taken")?.state, "created");
  await runtime.close();
});

Deno.test("a refused or failed operation stores nothing; a start on a suspended process keeps it suspended", async () => {
  const store = new MemoryProcessStore();
  const runtime = new AgentRuntime({ logger: quiet(), store });
  const desired = async (name: string) =>
    (await store.list()).records.find((r) => r.name === name)?.desired_state;
  await runtime.deploy("a", testConfig(), { persistConfig: { instructions: "a" } });
  await assert.rejects(runtime.suspend("a"), code("INVALID_STATE"));
  assert.equal(await desired("a"), "stopped");
  await assert.rejects(runtime.resume("a"), code("INVALID_STATE"));
  assert.equal(await desired("a"), "stopped");
  await runtime.start("a");
  assert.equal(await desired("a"), "running");
  await runtime.suspend("a");
  assert.equal(await runtime.start("a"), "suspended");
  assert.equal(await desired("a"), "suspended");
  const failing = testConfig({ secrets: { enabled: true, secrets: { K: "${MISSING_VAR}" } } });
  await runtime.deploy("b", failing, { persistConfig: { instructions: "b" } });
  await assert.rejects(runtime.start("b"), code("START_FAILED"));
  assert.equal(await desired("b"), "stopped");
  await runtime.close();
});

Deno.test("concurrent deploys of one name: one registers and stores, the others are refused", async () => {
  const store = new MemoryProcessStore();
  const runtime = new AgentRuntime({ logger: quiet(), store });
  const results = await Promise.allSettled(
    Array.from(
      { length: 10 },
      (_, i) => runtime.deploy("x", testConfig(), { persistConfig: { instructions: `${i}` } }),
    ),
  );
  const won = results.flatMap((r, i) => r.status === "fulfilled" ? [i] : []);
  assert.equal(won.length, 1);
  assert.ok(results.every((r) => r.status === "fulfilled" || code("PROCESS_EXISTS")(r.reason)));
  const { records } = await store.list();
  assert.deepEqual(records.map((r) => r.config), [{ instructions: `${won[0]}` }]);
  await runtime.close();
});

// --- Library use (issue 17): deploy takes the config as the control API does ---

const invalidConfig = (error: unknown) => {
  assert.ok(error instanceof RuntimeError && error.code === "INVALID_CONFIG", String(error));
  return error as RuntimeError<"INVALID_CONFIG">;
};

async function deployError(runtime: AgentRuntime, config: unknown): Promise<RuntimeError<"INVALID_CONFIG">> {
  try {
    await runtime.deploy("orders", config as never);
  } catch (error) {
    return invalidConfig(error);
  }
  assert.fail("the deploy was accepted");
}

Deno.test("deploy takes a partial config as the API does, fills its defaults and starts", async () => {
  const runtime = new AgentRuntime({ logger: quiet() });
  const process = await runtime.deploy("watcher", {
    triggers: [{ type: "event", event_type: "order.created" }],
  }, { start: true });
  assert.equal(process.state, "running");
  assert.equal(
    process.config.trigger_delivery.dead_letter_size,
    testConfig().trigger_delivery.dead_letter_size,
  );
  assert.equal(process.config.concurrency, 1);
  await runtime.close();
});

Deno.test("an invalid config is INVALID_CONFIG naming the field and rule, and registers nothing", async () => {
  const runtime = new AgentRuntime({ logger: quiet() });
  const error = await deployError(runtime, { triggers: [{ type: "webhook", webhook_port: "9091" }] });
  assert.deepEqual(error.details.issues, [
    { field: "triggers[0].webhook_port", expected: "an integer from 1 to 65535 (got a string)" },
  ]);
  assert.equal(
    error.message,
    "process orders: invalid config: triggers[0].webhook_port: an integer from 1 to 65535 (got a string)",
  );
  assert.equal(runtime.size, 0);
  await runtime.close();
});

const ORDERS = {
  triggers: [
    { type: "cron", cron_expression: "0 8 * * 1-5" },
    { type: "webhook", webhook_path: "/orders", hmac_secret: "${ORDERS_WEBHOOK_SECRET}" },
  ],
};

Deno.test("a reference to an unset variable refuses the deploy naming the field and the variable", async () => {
  const runtime = new AgentRuntime({ logger: quiet(), env: () => undefined });
  const error = await deployError(runtime, ORDERS);
  assert.equal(
    error.message,
    "process orders: invalid config: triggers[1].hmac_secret: ${ORDERS_WEBHOOK_SECRET} is not set",
  );
  assert.equal(runtime.size, 0);
  await runtime.close();
});

Deno.test("a short secret behind a reference refuses the deploy with the rule and length only", async () => {
  const runtime = new AgentRuntime({ logger: quiet(), env: () => "short1234" });
  const error = await deployError(runtime, ORDERS);
  assert.deepEqual(error.details.issues, [
    { field: "triggers[1].hmac_secret", expected: "must be at least 16 characters (got 9)" },
  ]);
  assert.ok(!error.message.includes("short1234"));
  await runtime.close();
});

Deno.test("checkConfig issues refuse a library deploy too", async () => {
  const runtime = new AgentRuntime({
    logger: quiet(),
    checkConfig: (config) =>
      config.model === "nope:x" ? [{ field: "model", expected: "a known provider" }] : [],
  });
  const error = await deployError(runtime, { model: "nope:x" });
  assert.deepEqual(error.details.issues, [{ field: "model", expected: "a known provider" }]);
  await runtime.close();
});

Deno.test("a variable gone by the next start fails it with a message naming field and variable", async () => {
  const values = new Map([["ORDERS_WEBHOOK_SECRET", "a-long-shared-secret"]]);
  const runtime = new AgentRuntime({ logger: quiet(), env: (name) => values.get(name) });
  await runtime.deploy("orders", ORDERS as never);
  values.clear();
  await assert.rejects(runtime.start("orders"), (error: unknown) => {
    assert.ok(error instanceof RuntimeError && error.code === "START_FAILED");
    assert.equal(
      error.message,
      "process orders could not be started: triggers[1].hmac_secret: ${ORDERS_WEBHOOK_SECRET} is not set",
    );
    return true;
  });
  await runtime.close();
});

Deno.test("updateSection and reconfigure take partial input and refuse invalid input by field", async () => {
  const runtime = new AgentRuntime({ logger: quiet() });
  await runtime.deploy("a", {});
  await runtime.updateSection("a", "budget", { section: { max_runs_per_day: 5 } });
  assert.equal(runtime.require("a").config.budget.max_runs_per_day, 5);
  assert.equal(runtime.require("a").config.budget.enabled, testConfig().budget.enabled);
  await assert.rejects(
    runtime.updateSection("a", "budget", { section: { max_runs_per_day: "5" } as never }),
    (error: unknown) => {
      assert.equal(invalidConfig(error).details.issues[0].field, "budget.max_runs_per_day");
      return true;
    },
  );
  await runtime.reconfigure("a", { config: { concurrency: 3 }, rawConfig: (raw) => raw });
  assert.equal(runtime.require("a").config.concurrency, 3);
  assert.equal(runtime.require("a").config.max_steps, testConfig().max_steps);
  await runtime.close();
});
