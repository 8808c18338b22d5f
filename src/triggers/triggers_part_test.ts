import assert from "node:assert/strict";
import { join } from "node:path";
import { Logger, memorySink } from "../log.ts";
import {
  AgentRuntime,
  type Invoker,
  MemoryProcessStore,
  parseProcessConfig,
  type ProcessConfig,
  type RunRequest,
  RuntimeError,
  type RuntimeErrorCode,
  type TriggerConfig,
} from "../runtime/mod.ts";
import { EventBus } from "./event_bus.ts";
import { MessageBroker } from "./message_broker.ts";
import { addTrigger, listTriggers, removeTrigger } from "./trigger_admin.ts";
import { stableTriggerIds } from "./trigger_ids.ts";
import { createTriggersPart } from "./triggers_part.ts";

/** A rejection check for a RuntimeError with this code. */
const code = (expected: RuntimeErrorCode) => (e: unknown) => e instanceof RuntimeError && e.code === expected;

function config(input: Record<string, unknown>): ProcessConfig {
  const parsed = parseProcessConfig(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.config;
}

function trigger(input: Record<string, unknown>): TriggerConfig {
  return config({ triggers: [input] }).triggers[0];
}

/** A runtime with triggers whose invoker records runs. */
function setup(options: { store?: MemoryProcessStore } = {}) {
  const eventBus = new EventBus();
  const broker = new MessageBroker();
  const runs: RunRequest[] = [];
  const waiters: Array<() => void> = [];
  const invoker: Invoker = (run) => {
    runs.push(run);
    waiters.splice(0).forEach((wake) => wake());
    return Promise.resolve({ response: "ok" });
  };
  const sink = memorySink();
  const runtime = new AgentRuntime({
    logger: new Logger("t", { sink }),
    parts: [createTriggersPart({ eventBus, broker })],
    invoker,
    store: options.store,
  });
  const until = async (count: number) => {
    const deadline = Date.now() + 5_000;
    while (runs.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${runs.length} runs`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return { eventBus, broker, runs, until, runtime, sink };
}

Deno.test("a configured event trigger wakes the process with its stable id and payload", async () => {
  const { eventBus, runs, until, runtime } = setup();
  const cfg = config({ triggers: [{ type: "event", event_type: "order.created" }] });
  const process = await runtime.deploy("shop", cfg, { start: true });
  const id = eventBus.emit({ event_type: "order.created", source: "web", data: { order: 7 } });
  await until(1);
  assert.equal(runs[0].event.trigger_id, stableTriggerIds(cfg.triggers)[0]);
  assert.equal(runs[0].event.trigger_type, "event");
  assert.deepEqual(runs[0].event.payload, {
    event_type: "order.created",
    event_id: id,
    source: "web",
    data: { order: 7 },
  });
  assert.equal((process.status().triggers as { count: number }).count, 1);
  await runtime.close();
  assert.equal(eventBus.subscriberCount(), 0, "stopping the process unsubscribes");
});

Deno.test("message triggers match wildcard topics and the broker is shared with publishers", async () => {
  const { broker, runs, until, runtime } = setup();
  await runtime.deploy("reports", config({ triggers: [{ type: "message", topic: "reports.*" }] }), {
    start: true,
  });
  broker.publish("reports.daily", { rows: 3 }, { sender: "etl" });
  broker.publish("reports.daily.pdf", "ignored");
  broker.publish("alerts.x", "ignored");
  await until(1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(runs.length, 1);
  const payload = runs[0].event.payload as Record<string, unknown>;
  assert.equal(payload.topic, "reports.daily");
  assert.equal(payload.sender, "etl");
  assert.deepEqual(payload.content, { rows: 3 });
  await runtime.close();
});

Deno.test("firings are journaled as trigger_event at level full", async () => {
  const { eventBus, until, runtime } = setup();
  const cfg = config({
    journal: { backend: "memory", level: "full" },
    triggers: [{ type: "event", event_type: "x" }],
  });
  const process = await runtime.deploy("j", cfg, { start: true });
  eventBus.emit({ event_type: "x", data: { n: 1 } });
  await until(1);
  const entries = await process.journal!.read({ type: "trigger_event" });
  assert.equal(entries.length, 1);
  assert.equal(entries[0].data.trigger_type, "event");
  assert.deepEqual((entries[0].data.payload as { data: unknown }).data, { n: 1 });
  await runtime.close();
});

Deno.test("a suspended process holds trigger events and resume runs them", async () => {
  const { eventBus, runs, until, runtime } = setup();
  await runtime.deploy("s", config({ triggers: [{ type: "event", event_type: "tick" }] }), { start: true });
  await runtime.suspend("s");
  eventBus.emit({ event_type: "tick" });
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(runs.length, 0);
  await runtime.resume("s");
  await until(1);
  await runtime.close();
});

Deno.test("a trigger that cannot start fails the process start and stops the others", async () => {
  const { eventBus, runtime } = setup();
  const cfg = config({
    triggers: [{ type: "event", event_type: "a" }, {
      type: "file_watch",
      watch_path: "/nonexistent/agentry/dir",
    }],
  });
  await assert.rejects(runtime.deploy("bad", cfg, { start: true }), code("START_FAILED"));
  assert.equal(runtime.get("bad")?.state, "failed");
  assert.equal(eventBus.subscriberCount(), 0);
  await runtime.close();
});

Deno.test("triggers added while running start at once; while stopped they wait for the next start", async () => {
  const store = new MemoryProcessStore();
  const { eventBus, until, runtime } = setup({ store });
  const process = await runtime.deploy("p", config({}), { start: true, persistConfig: {} });
  const live = await addTrigger(runtime, process, {
    config: trigger({ type: "event", event_type: "a" }),
    raw: { type: "event", event_type: "a" },
  });
  assert.deepEqual([live.live, live.effective_from], [true, "immediate"]);
  eventBus.emit({ event_type: "a" });
  await until(1);
  await runtime.stop("p");
  const later = await addTrigger(runtime, process, {
    config: trigger({ type: "event", event_type: "b" }),
    raw: { type: "event", event_type: "b" },
  });
  assert.deepEqual([later.live, later.effective_from], [false, "next_start"]);
  assert.deepEqual(listTriggers(process).map((t) => `${t.type}:${t.source}:${t.live}`), [
    "event:config:false",
    "event:config:false",
  ]);
  await runtime.start("p");
  eventBus.emit({ event_type: "b" });
  await until(2);
  assert.deepEqual(listTriggers(process).map((t) => t.live), [true, true]);
  const stored = (await store.list()).records[0].config.triggers as unknown[];
  assert.deepEqual(
    stored,
    [{ type: "event", event_type: "a" }, { type: "event", event_type: "b" }],
    "the stored config follows",
  );
  await runtime.close();
});

Deno.test("an identical trigger is refused and removal works by stable and legacy id", async () => {
  const { eventBus, runtime } = setup();
  const cfg = config({ triggers: [{ type: "event", event_type: "a" }, { type: "event", event_type: "b" }] });
  const process = await runtime.deploy("p", cfg, { start: true });
  await assert.rejects(
    addTrigger(runtime, process, { config: trigger({ event_type: "a", type: "event" }), raw: {} }),
    code("TRIGGER_EXISTS"),
  );
  const [idA, idB] = stableTriggerIds(cfg.triggers);
  const removed = await removeTrigger(runtime, process, { triggerId: idA });
  assert.deepEqual(removed, {
    trigger_removed: idA,
    live: true,
    effective_from: "immediate",
    warning: undefined,
  });
  assert.equal(eventBus.subscriberCount("a"), 0, "stopped at once");
  const legacy = await removeTrigger(runtime, process, { triggerId: "static_0" });
  assert.equal(legacy.trigger_removed, idB);
  assert.match(legacy.warning ?? "", new RegExp(`stable id is ${idB}`));
  assert.deepEqual(process.config.triggers, []);
  await assert.rejects(
    removeTrigger(runtime, process, { triggerId: "event-0000000000" }),
    code("TRIGGER_NOT_FOUND"),
  );
  await assert.rejects(removeTrigger(runtime, process, { triggerId: "static_5" }), code("TRIGGER_NOT_FOUND"));
  await runtime.close();
});

Deno.test("identical configured triggers get -2 ids and removing one keeps the other running", async () => {
  const { eventBus, runtime } = setup();
  const twin = { type: "event", event_type: "dup" };
  const cfg = config({ triggers: [twin, twin] });
  const process = await runtime.deploy("p", cfg, { start: true });
  const ids = listTriggers(process).map((t) => t.id);
  assert.equal(ids[1], `${ids[0]}-2`);
  assert.equal(eventBus.subscriberCount("dup"), 2);
  await removeTrigger(runtime, process, { triggerId: ids[0] });
  assert.deepEqual(listTriggers(process).map((t) => [t.id, t.live]), [[ids[0], true]]);
  assert.equal(eventBus.subscriberCount("dup"), 1);
  await runtime.close();
});

Deno.test("listings mask secrets and an unstartable live trigger changes nothing", async () => {
  const { runtime } = setup();
  const dir = await Deno.makeTempDir();
  try {
    const process = await runtime.deploy("p", config({}), { start: true });
    const bad = trigger({ type: "file_watch", watch_path: join(dir, "missing") });
    await assert.rejects(addTrigger(runtime, process, { config: bad, raw: {} }));
    assert.deepEqual(process.config.triggers, []);
    const hooked = config({
      triggers: [{ type: "event", event_type: "z", custom_config: { api_key: "k-1", region: "eu" } }],
    });
    await runtime.deploy("q", hooked);
    const listing = listTriggers(runtime.get("q")!);
    assert.deepEqual(listing[0].config?.custom_config, { api_key: "***", region: "eu" });
    assert.equal(listing[0].live, false);
  } finally {
    await runtime.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a runtime without a triggers part warns that configured triggers will not fire", async () => {
  const sink = memorySink();
  const runtime = new AgentRuntime({ logger: new Logger("t", { sink }), parts: [] });
  await runtime.deploy("p", config({ triggers: [{ type: "event", event_type: "a" }] }), { start: true });
  assert.ok(sink.records.some((r) => r.level === "warning" && r.message.includes("no triggers part")));
  await runtime.close();
});
