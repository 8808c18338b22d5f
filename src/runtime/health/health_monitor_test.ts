import assert from "node:assert/strict";
import { type HealthConfigInput, HealthConfigSchema } from "../config/health_config.ts";
import type { HealthConfig } from "../config/health_config.ts";
import { MemoryJournal, ProcessJournal } from "../../journal/mod.ts";
import { Logger } from "../../log.ts";
import { isRuntimeError } from "../errors.ts";
import { HealthMonitor } from "./health_monitor.ts";

/** A monitor over a config the test changes, a clock the test moves and a real memory journal. */
function setup(input: HealthConfigInput) {
  const memory = new MemoryJournal();
  const state = {
    config: HealthConfigSchema.parse({ enabled: true, ...input }) as HealthConfig,
    now: 1_000_000,
    suspended: [] as string[],
  };
  const host = {
    name: "watched",
    processId: "pid-1",
    get config() {
      return { health: state.config };
    },
    journal: new ProcessJournal(memory, { process: "watched", level: "full" }),
    suspend: (reason: string) => {
      state.suspended.push(reason);
      return Promise.resolve();
    },
    resolveReferences: <T>(value: T) => value,
  };
  const monitor = new HealthMonitor(host, {
    logger: new Logger("test", { sink: () => {} }),
    now: () => state.now,
  });
  const set = (patch: HealthConfigInput) => {
    state.config = HealthConfigSchema.parse({ ...state.config, ...patch });
  };
  const entries = async (type: string) =>
    (await memory.read("watched")).filter((entry) => entry.entry_type === type).map((entry) => entry.data);
  return { monitor, state, set, entries };
}

/** One run calling `tool` with the same arguments `times` times, ending with `reply`. */
function stuckRun(monitor: HealthMonitor, runId: string, times: number, reply = "the lookup is done"): void {
  const watch = monitor.watch(runId);
  for (let i = 0; i < times; i++) watch?.toolCall("lookup", { id: 7 });
  watch?.end({ status: "succeeded", reply });
}

Deno.test("stuck fires once per cooldown, journals the anomaly and applies on_anomaly after the run", async () => {
  const { monitor, state, entries } = setup({ stuck_threshold: 3, cooldown: 60, on_anomaly: "pause" });
  const watch = monitor.watch("r1");
  for (let i = 0; i < 5; i++) watch?.toolCall("lookup", { id: 7 });
  assert.equal(state.suspended.length, 0, "the action waits for the end of the run");
  watch?.end({ status: "succeeded", reply: "the lookup is done" });
  await monitor.idle();
  assert.deepEqual(state.suspended, ["health anomaly: stuck"]);
  const [anomaly] = monitor.anomalies();
  assert.equal(monitor.anomalies().length, 1, "calls 4 and 5 fall in the cooldown");
  assert.equal(anomaly.type, "stuck");
  assert.equal(anomaly.run_id, "r1");
  assert.equal(anomaly.timestamp, new Date(state.now).toISOString());
  assert.deepEqual(anomaly.details, { tool: "lookup", repeats: 3 });
  assert.deepEqual(await entries("health_anomaly"), [
    { type: "stuck", description: anomaly.description, details: anomaly.details, run_id: "r1" },
  ]);
  state.now += 59_000;
  stuckRun(monitor, "r2", 3);
  assert.equal(monitor.anomalies().length, 1, "still cooling down");
  state.now += 1_000;
  stuckRun(monitor, "r3", 3);
  assert.equal(monitor.anomalies().length, 2, "the cooldown is over");
});

Deno.test("stuck counts calls within one run only", () => {
  const { monitor } = setup({ stuck_threshold: 3 });
  stuckRun(monitor, "r1", 2);
  stuckRun(monitor, "r2", 2);
  assert.equal(monitor.status().anomalies, 0);
});

Deno.test("loop fires once per cooldown", () => {
  const { monitor, state } = setup({ loop_min_repeats: 2, cooldown: 10 });
  const run = (id: string) => {
    const watch = monitor.watch(id);
    for (let i = 0; i < 3; i++) {
      watch?.toolCall("search", { q: "same" });
      watch?.toolCall("open", { url: "a" });
    }
    watch?.end({ status: "succeeded", reply: "the lookup is done" });
  };
  run("r1");
  assert.deepEqual(monitor.anomalies().map((a) => [a.type, a.details.pattern]), [["loop", [
    "search",
    "open",
  ]]]);
  run("r2");
  assert.equal(monitor.anomalies().length, 1);
  state.now += 10_000;
  run("r3");
  assert.equal(monitor.anomalies().length, 2);
});

Deno.test("empty_response fires on empty final replies in a row, once per cooldown", () => {
  const { monitor, state } = setup({ empty_threshold: 2, empty_max_chars: 0, cooldown: 5 });
  const run = (reply: string, status: "succeeded" | "failed" = "succeeded") =>
    monitor.watch(crypto.randomUUID())?.end({ status, reply });
  run("  ");
  run("answer");
  run("\n");
  run("", "failed"); // a failed run has no final reply: neither counts nor breaks the streak
  assert.equal(monitor.status().anomalies, 0);
  run(" ");
  assert.equal(monitor.status().last_anomaly?.type, "empty_response");
  run("");
  assert.equal(monitor.status().anomalies, 1);
  state.now += 5_000;
  run("");
  assert.equal(monitor.status().anomalies, 2);
});

Deno.test("high_error_rate fires once the window is full, once per cooldown", () => {
  const { monitor, state } = setup({ error_window: 4, error_rate_threshold: 0.5, cooldown: 30 });
  const run = (status: "succeeded" | "failed" | "blocked") =>
    monitor.watch(crypto.randomUUID())?.end({
      status,
      reply: status === "succeeded" ? "a full answer" : null,
    });
  run("failed");
  run("failed");
  run("blocked"); // blocked runs count for nothing
  run("failed");
  assert.equal(monitor.status().anomalies, 0, "three runs: the window is not full");
  run("succeeded");
  assert.deepEqual(monitor.status().last_anomaly?.details, { failed_runs: 3, window: 4, rate: 0.75 });
  run("failed");
  assert.equal(monitor.status().anomalies, 1);
  state.now += 30_000;
  run("failed");
  assert.equal(monitor.status().anomalies, 2);
});

Deno.test("the config is read at every check: thresholds, cooldown, action and enabled apply live", async () => {
  const { monitor, state, set } = setup({ stuck_threshold: 4, cooldown: 300 });
  stuckRun(monitor, "r1", 3);
  assert.equal(monitor.status().anomalies, 0);
  set({ stuck_threshold: 3, on_anomaly: "pause" });
  const watch = monitor.watch("r2");
  watch?.toolCall("lookup", { id: 7 });
  watch?.toolCall("lookup", { id: 7 });
  set({ stuck_threshold: 2 }); // mid-run: the next call is checked with 2
  watch?.toolCall("other", {});
  watch?.toolCall("other", {});
  watch?.end({ status: "succeeded", reply: "the lookup is done" });
  await monitor.idle();
  assert.deepEqual(monitor.anomalies().map((a) => a.details), [{ tool: "other", repeats: 2 }]);
  assert.equal(state.suspended.length, 1);
  set({ cooldown: 0, on_anomaly: "log" });
  stuckRun(monitor, "r3", 2);
  await monitor.idle();
  assert.equal(monitor.status().anomalies, 2, "a lowered cooldown applies to the history kept");
  assert.equal(state.suspended.length, 1, "log does not suspend");
  set({ enabled: false });
  assert.equal(monitor.watch("r4"), undefined);
  assert.deepEqual(monitor.status(), { enabled: false, anomalies: 0, last_anomaly: null });
  assert.throws(() => monitor.anomalies(), (error) => isRuntimeError(error, "HEALTH_DISABLED"));
  assert.throws(() => monitor.clear(), (error) => isRuntimeError(error, "HEALTH_DISABLED"));
  set({ enabled: true });
  stuckRun(monitor, "r5", 2);
  assert.equal(monitor.status().anomalies, 1, "enabled again: checking starts afresh");
});

Deno.test("clear drops the history and the cooldowns", () => {
  const { monitor } = setup({ stuck_threshold: 2, cooldown: 3600 });
  stuckRun(monitor, "r1", 2);
  stuckRun(monitor, "r2", 2);
  assert.equal(monitor.anomalies().length, 1);
  assert.equal(monitor.clear(), 1);
  assert.deepEqual(monitor.anomalies(), []);
  stuckRun(monitor, "r3", 2);
  assert.equal(monitor.anomalies().length, 1, "no cooldown after a clear");
  assert.equal(monitor.clear(), 1);
  assert.equal(monitor.clear(), 0);
});

Deno.test("the first successful run without an anomaly after one journals health_recovered once", async () => {
  const { monitor, entries } = setup({ stuck_threshold: 2, cooldown: 0 });
  stuckRun(monitor, "r1", 2);
  monitor.watch("r2")?.end({ status: "failed", reply: null });
  stuckRun(monitor, "r3", 1);
  stuckRun(monitor, "r4", 1);
  await monitor.idle();
  assert.deepEqual(await entries("health_recovered"), [{ run_id: "r3", last_anomaly: "stuck" }]);
});

Deno.test("escalate refuses a loopback webhook, journals why, and still suspends", async () => {
  const { monitor, state, entries } = setup({
    stuck_threshold: 2,
    on_anomaly: "escalate",
    escalation: { webhook_url: "http://127.0.0.1:9/hook", event_type: "agent.health" },
  });
  stuckRun(monitor, "r1", 2);
  await monitor.idle();
  assert.deepEqual(state.suspended, ["health anomaly: stuck"]);
  assert.deepEqual(await entries("health_escalation"), [{
    anomaly_type: "stuck",
    webhook: true,
    sent: false,
    error: "webhook_url resolves to a private or loopback address",
    event: "no_event_bus",
  }]);
});
