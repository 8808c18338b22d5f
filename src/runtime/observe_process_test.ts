import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { runsOf } from "./process.ts";
import type { Invoker, ProcessEvent } from "./process_event.ts";
import { AgentRuntime } from "./runtime.ts";
import type { RuntimeEvent } from "./runtime_events.ts";
import { until } from "../../tests/_agent_harness.ts";

/** Replies "" to `quiet` (an empty reply), fails `fail`, answers the rest. */
const invoker: Invoker = (run) => {
  run.report.step("model_turn", { text: "thinking" });
  run.report.usage({ input_tokens: 5, output_tokens: 2 });
  if (run.event.payload === "fail") return Promise.reject(new Error("model down"));
  return Promise.resolve({ response: run.event.payload === "quiet" ? "" : "done" });
};

function event(payload: string, id = payload): ProcessEvent {
  return {
    trigger_id: "hourly",
    trigger_type: "cron",
    event_id: `ev-${id}`,
    timestamp: new Date().toISOString(),
    payload,
    metadata: {},
  };
}

Deno.test("a runtime emits deploys, states, trigger fires, runs, dead letters, anomalies and removals", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "agentry_runtime_events_" });
  const runtime = new AgentRuntime({ dataDir, invoker, logger: new Logger("t", { sink: memorySink() }) });
  try {
    const seen: RuntimeEvent[] = [];
    runtime.eventLog.subscribe({ event: (e) => seen.push(e), close: () => {} });
    const process = await runtime.deploy("watched", {
      instructions: "Watch.",
      journal: { level: "none" },
      health: { enabled: true, empty_threshold: 2, empty_max_chars: 0, on_anomaly: "log" },
      trigger_delivery: { max_retries: 0 },
    }, { start: true });
    await runsOf(process).deliver(event("hello"));
    await until("the first run", () => seen.some((e) => e.type === "run.ended"));
    await runsOf(process).deliver(event("fail"));
    await until("the dead letter", () => seen.some((e) => e.type === "dead_letter.added"));
    await runsOf(process).deliver(event("quiet", "quiet-1"));
    await runsOf(process).deliver(event("quiet", "quiet-2"));
    await until("the anomaly", () => seen.some((e) => e.type === "anomaly"));
    await runtime.remove("watched");

    assert.deepEqual(seen.map((e) => e.id), seen.map((_, i) => i + 1), "ids count from 1");
    assert.ok(seen.every((e) => e.data.process === "watched"));
    const types = seen.map((e) => e.type);
    assert.equal(types[0], "process.deployed");
    assert.equal(types.at(-1), "process.removed");
    const states = seen.flatMap((e) =>
      e.type === "process.state" ? [`${e.data.previous}>${e.data.state}`] : []
    );
    assert.deepEqual(states.slice(0, 2), ["created>starting", "starting>running"]);
    assert.equal(states.at(-1), "stopping>stopped");
    const hello = types.indexOf("trigger.fired");
    assert.deepEqual(types.slice(hello, hello + 3), ["trigger.fired", "run.started", "run.ended"]);

    const fired = seen.find((e) => e.type === "trigger.fired")!;
    assert.deepEqual({ ...fired.data, at: "" }, {
      process: "watched",
      trigger_id: "hourly",
      trigger_type: "cron",
      event_id: "ev-hello",
      at: "",
    });
    const ended = seen.filter((e) => e.type === "run.ended");
    assert.deepEqual(ended.map((e) => e.data.status), ["succeeded", "failed", "succeeded", "succeeded"]);
    const first = ended[0];
    assert.ok(first.type === "run.ended");
    assert.equal(first.data.steps, 1);
    assert.deepEqual(first.data.usage, { input_tokens: 5, output_tokens: 2 });
    const started = seen.find((e) => e.type === "run.started");
    assert.ok(started?.type === "run.started");
    assert.equal(started.data.run_id, first.data.run_id);
    const letter = seen.find((e) => e.type === "dead_letter.added");
    assert.ok(letter?.type === "dead_letter.added");
    assert.equal(letter.data.event_id, "ev-fail");
    assert.equal(letter.data.reason, "retries exhausted");
    assert.equal(letter.data.attempts, 1);
    const anomaly = seen.find((e) => e.type === "anomaly");
    assert.ok(anomaly?.type === "anomaly");
    assert.equal(anomaly.data.type, "empty_response");
    assert.equal(typeof anomaly.data.description, "string");
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
  assert.equal(runtime.eventLog.subscriberCount, 0, "closing the runtime lets readers go");
});
