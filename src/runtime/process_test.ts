import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { Logger, memorySink } from "../log.ts";
import { MemoryJournal, ProcessJournal } from "../journal/mod.ts";
import { AgentProcess } from "./process.ts";
import { RuntimeError, type RuntimeErrorCode } from "./errors.ts";
import type { PartContext, ProcessPart } from "./process_parts.ts";
import { testConfig } from "./_test_config.ts";

const quiet = () => new Logger("test", { sink: memorySink() });
const code = (expected: RuntimeErrorCode) => (e: unknown) => e instanceof RuntimeError && e.code === expected;

function recordingPart(log: string[], name = "part", failStart = false): (ctx: PartContext) => ProcessPart {
  return (ctx) => ({
    name,
    start() {
      log.push(`${name}:start:${ctx.config.instructions}`);
      return failStart ? Promise.reject(new Error("part refused")) : Promise.resolve();
    },
    stop() {
      log.push(`${name}:stop`);
      return Promise.resolve();
    },
    status: () => ({ seen: log.length }),
  });
}

Deno.test("start moves created to running through starting and counts the start", async () => {
  const process = new AgentProcess({ name: "a", config: testConfig(), logger: quiet() });
  assert.equal(await process.start(), "running");
  assert.deepEqual(process.history.map((t) => t.to), ["starting", "running"]);
  const status = process.status();
  assert.equal(status.counters.starts, 1);
  assert.equal(typeof status.started_at, "number");
  await process.stop();
});

Deno.test("starting a started process changes nothing and stopping a created one changes nothing", async () => {
  const process = new AgentProcess({ name: "a", config: testConfig(), logger: quiet() });
  assert.equal(await process.stop(), "created");
  await process.start();
  assert.equal(await process.start(), "running");
  assert.equal(process.status().counters.starts, 1);
  assert.equal(await process.stop(), "stopped");
  assert.equal(await process.stop(), "stopped");
  assert.equal(process.status().counters.stops, 1);
});

Deno.test("parts start in order with resolved references and stop in reverse", async () => {
  const log: string[] = [];
  const process = new AgentProcess({
    name: "a",
    config: testConfig({ instructions: "${NOT_RESOLVED}", inbox: { enabled: false } }),
    env: (name) => (name === "HOME_DIR" ? "/home/x" : undefined),
    logger: quiet(),
    parts: [recordingPart(log, "one"), recordingPart(log, "two")],
  });
  await process.start();
  assert.deepEqual(process.status().one, { seen: 2 });
  await process.stop();
  assert.deepEqual(log, ["one:start:${NOT_RESOLVED}", "two:start:${NOT_RESOLVED}", "two:stop", "one:stop"]);
});

Deno.test("an unresolvable reference fails the start, leaves the process failed, and a fixed env recovers it", async () => {
  const vars = new Map<string, string>();
  const process = new AgentProcess({
    name: "a",
    config: testConfig({ secrets: { enabled: true, secrets: { KEY: "${API_KEY}" } } }),
    env: (name) => vars.get(name),
    logger: quiet(),
  });
  await assert.rejects(process.start(), code("START_FAILED"));
  assert.equal(process.state, "failed");
  assert.equal(process.status().counters.start_failures, 1);
  vars.set("API_KEY", "k");
  assert.equal(await process.start(), "running");
  await process.stop();
});

Deno.test("a part that fails to start stops the parts already started", async () => {
  const log: string[] = [];
  const process = new AgentProcess({
    name: "a",
    config: testConfig(),
    logger: quiet(),
    parts: [recordingPart(log, "one"), recordingPart(log, "two", true)],
  });
  await assert.rejects(process.start(), code("START_FAILED"));
  assert.deepEqual(log, ["one:start:", "two:start:", "two:stop", "one:stop"]);
  assert.equal(process.state, "failed");
});

Deno.test("suspend and resume follow the state table", async () => {
  const process = new AgentProcess({ name: "a", config: testConfig(), logger: quiet() });
  await assert.rejects(process.suspend(), code("INVALID_STATE"));
  await assert.rejects(process.resume(), code("INVALID_STATE"));
  await process.start();
  await assert.rejects(
    process.resume(),
    (e: unknown) => e instanceof RuntimeError && e.code === "INVALID_STATE" && e.details.state === "running",
  );
  assert.equal(await process.suspend(), "suspended");
  await assert.rejects(process.suspend(), code("INVALID_STATE"));
  assert.equal(await process.resume(), "running");
  await process.stop();
  await assert.rejects(
    process.suspend(),
    (e: unknown) => e instanceof RuntimeError && e.code === "INVALID_STATE" && e.details.state === "stopped",
  );
});

Deno.test("restart stops then starts and counts a restart", async () => {
  const log: string[] = [];
  const process = new AgentProcess({
    name: "a",
    config: testConfig(),
    logger: quiet(),
    parts: [recordingPart(log)],
  });
  await process.start();
  assert.equal(await process.restart(), "running");
  assert.deepEqual(log, ["part:start:", "part:stop", "part:start:"]);
  assert.equal(process.status().counters.restarts, 1);
  await process.stop();
});

Deno.test("operations run one at a time: a start issued during a stop waits for it", async () => {
  const gate = Promise.withResolvers<void>();
  const log: string[] = [];
  const process = new AgentProcess({
    name: "a",
    config: testConfig(),
    logger: quiet(),
    parts: [() => ({
      name: "slow",
      start: () => {
        log.push("start");
        return Promise.resolve();
      },
      stop: async () => {
        log.push("stop begins");
        await gate.promise;
        log.push("stop ends");
      },
    })],
  });
  await process.start();
  const stopping = process.stop();
  const starting = process.start();
  await Promise.resolve();
  assert.equal(process.state, "stopping");
  gate.resolve();
  assert.equal(await stopping, "stopped");
  assert.equal(await starting, "running");
  assert.deepEqual(log, ["start", "stop begins", "stop ends", "start"]);
  await process.stop();
});

Deno.test("an idle process moves to awaiting after idle_timeout and wakes on activity", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const process = new AgentProcess({
      name: "a",
      config: testConfig({ idle_timeout: 60 }),
      logger: quiet(),
    });
    await process.start();
    clock.tick(59_000);
    assert.equal(process.state, "running");
    process.touch("a run");
    clock.tick(59_000);
    assert.equal(process.state, "running");
    clock.tick(1_000);
    assert.equal(process.state, "awaiting");
    process.touch("trigger event");
    assert.equal(process.state, "running");
    assert.match(process.history.at(-1)!.reason, /woken: trigger event/);
    assert.equal(await process.suspend(), "suspended");
    clock.tick(600_000);
    assert.equal(process.state, "suspended");
    await process.stop();
  } finally {
    clock.uninstall();
  }
});

Deno.test("without idle_timeout a process never goes to awaiting; resume from awaiting runs again", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const never = new AgentProcess({ name: "n", config: testConfig(), logger: quiet() });
    await never.start();
    clock.tick(10 * 86_400_000);
    assert.equal(never.state, "running");
    await never.stop();
    const idle = new AgentProcess({ name: "i", config: testConfig({ idle_timeout: 1 }), logger: quiet() });
    await idle.start();
    clock.tick(1_000);
    assert.equal(idle.state, "awaiting");
    assert.equal(await idle.resume(), "running");
    await idle.stop();
  } finally {
    clock.uninstall();
  }
});

Deno.test("state transitions are journaled with from, to, reason and process id", async () => {
  const journal = new ProcessJournal(new MemoryJournal(), { process: "a", level: "checkpoint" });
  const process = new AgentProcess({ name: "a", config: testConfig(), journal, logger: quiet() });
  await process.start();
  await process.stop();
  const entries = await journal.read({ type: "state_transition" });
  assert.deepEqual(entries.map((e) => `${e.data.from_state}>${e.data.to_state}`), [
    "created>starting",
    "starting>running",
    "running>stopping",
    "stopping>stopped",
  ]);
  assert.equal(entries[0].data.process_id, process.processId);
});

Deno.test("removal wins over operations queued behind it: a queued restart or start is refused and nothing starts again", async () => {
  const log: string[] = [];
  let release!: () => void;
  const slowStop = new Promise<void>((resolve) => (release = resolve));
  const process = new AgentProcess({
    name: "a",
    config: testConfig(),
    logger: quiet(),
    parts: [(ctx) => ({
      name: "slow",
      start: () => (log.push(`start:${ctx.name}`), Promise.resolve()),
      stop: () => (log.push("stop"), slowStop),
      status: () => ({}),
    })],
  });
  await process.start();
  const stopping = process.stop();
  while (!log.includes("stop")) await new Promise((resolve) => setTimeout(resolve, 1)); // the stop is under way
  const restarting = assert.rejects(process.restart(), code("PROCESS_NOT_FOUND"));
  const closing = process.close();
  const starting = assert.rejects(process.start(), code("PROCESS_NOT_FOUND"));
  release();
  await stopping;
  await restarting;
  await starting;
  await closing;
  assert.equal(process.state, "stopped");
  assert.deepEqual(log, ["start:a", "stop"]);
  await assert.rejects(process.resume(), code("PROCESS_NOT_FOUND"));
});
