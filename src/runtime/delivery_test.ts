import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { Logger, memorySink } from "../log.ts";
import { MemoryJournal, ProcessJournal } from "../journal/mod.ts";
import { AgentProcess, runsOf } from "./process.ts";
import { type Invoker, type ProcessEvent, RunBlockedError, type RunRequest } from "./process_event.ts";
import { testConfig } from "./_test_config.ts";

let seq = 0;
function event(payload: unknown = {}): ProcessEvent {
  seq++;
  return {
    trigger_id: "t-1",
    trigger_type: "event",
    event_id: `e-${seq}`,
    timestamp: new Date().toISOString(),
    payload,
    metadata: {},
  };
}

/** An invoker whose runs the test finishes by hand. */
function manualInvoker() {
  const calls: Array<RunRequest & { finish: (error?: Error) => void }> = [];
  const waiters: Array<() => void> = [];
  const invoker: Invoker = (run) =>
    new Promise((resolve, reject) => {
      calls.push({ ...run, finish: (error) => (error ? reject(error) : resolve({ response: "done" })) });
      waiters.splice(0).forEach((wake) => wake());
      run.signal.addEventListener("abort", () => reject(run.signal.reason));
    });
  const until = async (count: number) => {
    while (calls.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { invoker, calls, until };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function processWith(
  invoker: Invoker | undefined,
  config: Record<string, unknown> = {},
  journal?: ProcessJournal,
) {
  const sink = memorySink();
  const process = new AgentProcess({
    name: "p",
    config: testConfig(config),
    invoker,
    journal,
    logger: new Logger("t", { sink }),
  });
  return { process, sink };
}

Deno.test("delivered events reach the invoker one at a time with concurrency 1", async () => {
  const { invoker, calls, until } = manualInvoker();
  const { process } = processWith(invoker);
  await process.start();
  await runsOf(process).deliver(event("a"));
  await runsOf(process).deliver(event("b"));
  await until(1);
  await settle();
  assert.equal(calls.length, 1, "the second waits for the first");
  assert.equal(calls[0].event.payload, "a");
  assert.equal(calls[0].attempt, 1);
  assert.equal(calls[0].invocation, 1);
  calls[0].finish();
  await until(2);
  assert.equal(calls[1].event.payload, "b");
  calls[1].finish();
  await settle();
  assert.equal(process.status().runs.runs_succeeded, 2);
  assert.equal(process.status().runs.invocations, 2);
  await process.stop();
});

Deno.test("concurrency runs that many events at once", async () => {
  const { invoker, calls, until } = manualInvoker();
  const { process } = processWith(invoker, { concurrency: 3 });
  await process.start();
  for (let i = 0; i < 5; i++) await runsOf(process).deliver(event(i));
  await until(3);
  await settle();
  assert.equal(calls.length, 3);
  assert.equal(process.status().runs.in_flight, 3);
  calls.forEach((c) => c.finish());
  await until(5);
  calls.slice(3).forEach((c) => c.finish());
  await settle();
  assert.equal(process.status().runs.runs_succeeded, 5);
  await process.stop();
});

Deno.test("a suspended process holds events and resume delivers them", async () => {
  const { invoker, calls, until } = manualInvoker();
  const { process } = processWith(invoker);
  await process.start();
  await process.suspend();
  await runsOf(process).deliver(event("held"));
  await settle();
  assert.equal(calls.length, 0);
  await process.resume();
  await until(1);
  assert.equal(calls[0].event.payload, "held");
  calls[0].finish();
  await process.stop();
});

Deno.test("an event wakes an awaiting process, and a long run never makes it idle", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const { invoker, calls } = manualInvoker();
    const { process } = processWith(invoker, { idle_timeout: 10 });
    await process.start();
    clock.tick(10_000);
    assert.equal(process.state, "awaiting");
    await runsOf(process).deliver(event());
    await clock.tickAsync(0);
    assert.equal(process.state, "running");
    assert.equal(calls.length, 1);
    clock.tick(60_000);
    assert.equal(process.state, "running", "no idle while a run is in flight");
    calls[0].finish();
    await clock.tickAsync(0);
    clock.tick(10_000);
    assert.equal(process.state, "awaiting");
    await process.stop();
  } finally {
    clock.uninstall();
  }
});

Deno.test("a failed run is retried with exponential backoff, then dead-lettered", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const attempts: number[] = [];
    const invoker: Invoker = (run) => {
      attempts.push(run.attempt);
      return Promise.reject(new Error("model down"));
    };
    const { process } = processWith(invoker, {
      trigger_delivery: { max_retries: 2, retry_backoff: 2, retry_backoff_max: 3 },
    });
    await process.start();
    await runsOf(process).deliver(event());
    await clock.tickAsync(0);
    assert.deepEqual(attempts, [1]);
    assert.equal(process.status().runs.pending_retries, 1);
    await clock.tickAsync(1_999);
    assert.deepEqual(attempts, [1]);
    await clock.tickAsync(1);
    assert.deepEqual(attempts, [1, 2]);
    await clock.tickAsync(2_999);
    assert.deepEqual(attempts, [1, 2], "the second backoff is capped at retry_backoff_max");
    await clock.tickAsync(1);
    assert.deepEqual(attempts, [1, 2, 3]);
    const [letter] = runsOf(process).deadLetters.list();
    assert.equal(letter.reason, "retries exhausted");
    assert.equal(letter.attempts, 3);
    assert.equal(letter.error, "Error: model down");
    assert.equal(process.status().runs.consecutive_failures, 1);
    await process.stop();
  } finally {
    clock.uninstall();
  }
});

Deno.test("max_consecutive_failures failed events fail the process and dead-letter the rest", async () => {
  const gate = Promise.withResolvers<void>();
  let runs = 0;
  const invoker: Invoker = async () => {
    runs++;
    await gate.promise;
    throw new Error("broken");
  };
  const { process } = processWith(invoker, { trigger_delivery: { max_consecutive_failures: 2 } });
  await process.start();
  for (let i = 0; i < 4; i++) await runsOf(process).deliver(event(i));
  gate.resolve();
  while (process.state !== "failed") await settle();
  await settle();
  assert.equal(runs, 2);
  const reasons = runsOf(process).deadLetters.list().map((l) => l.reason);
  assert.deepEqual(reasons, ["retries exhausted", "retries exhausted", "process failed", "process failed"]);
  assert.match(process.history.at(-1)!.reason, /2 consecutive failed runs/);
  assert.equal(await process.start(), "running", "a failed process can be started again");
  await process.stop();
});

Deno.test("a success resets the consecutive failure count", async () => {
  const outcomes = [false, true, false, false];
  const invoker: Invoker = () => outcomes.shift() ? Promise.resolve({}) : Promise.reject(new Error("x"));
  const { process } = processWith(invoker, { trigger_delivery: { max_consecutive_failures: 2 } });
  await process.start();
  for (let i = 0; i < 3; i++) await runsOf(process).deliver(event(i));
  while (process.status().runs.runs_failed! + process.status().runs.runs_succeeded! < 3) await settle();
  assert.equal(process.state, "running");
  assert.equal(process.status().runs.consecutive_failures, 1);
  await process.stop();
});

Deno.test("blocked runs and a missing runner dead-letter without counting as failures", async () => {
  const blocked: Invoker = () => Promise.reject(new RunBlockedError("blocked by guardrails"));
  const { process } = processWith(blocked, { trigger_delivery: { max_consecutive_failures: 1 } });
  await process.start();
  await runsOf(process).deliver(event());
  while (runsOf(process).deadLetters.size === 0) await settle();
  assert.equal(runsOf(process).deadLetters.list()[0].reason, "blocked by guardrails");
  assert.equal(process.state, "running");
  await process.stop();

  const { process: bare, sink } = processWith(undefined, {
    trigger_delivery: { max_consecutive_failures: 1 },
  });
  await bare.start();
  await runsOf(bare).deliver(event());
  await runsOf(bare).deliver(event());
  while (runsOf(bare).deadLetters.size < 2) await settle();
  assert.deepEqual(runsOf(bare).deadLetters.list().map((l) => l.reason), ["no runner", "no runner"]);
  assert.equal(bare.state, "running");
  assert.equal(bare.status().runs.invocations, 0);
  assert.equal(sink.records.filter((r) => r.message.includes("no agent runner")).length, 1);
  await bare.stop();
});

Deno.test("stop aborts the run in flight and dead-letters what is queued", async () => {
  const { invoker, calls, until } = manualInvoker();
  const { process } = processWith(invoker);
  await process.start();
  await runsOf(process).deliver(event("running"));
  await runsOf(process).deliver(event("queued"));
  await until(1);
  await process.stop();
  assert.equal(calls[0].signal.aborted, true);
  const letters = runsOf(process).deadLetters.list();
  assert.deepEqual(letters.map((l) => `${l.event.payload}:${l.reason}`), [
    "running:process stopped",
    "queued:process stopped",
  ]);
  assert.equal(await runsOf(process).redeliver(), 0, "a stopped process takes nothing back");
  await assert.rejects(runsOf(process).deliver(event()), /not started/);
});

Deno.test("inject refuses when the queue is full and redeliver puts dead letters back", async () => {
  const { invoker, calls, until } = manualInvoker();
  const { process } = processWith(invoker);
  await process.start();
  await runsOf(process).deliver(event("first"));
  await until(1);
  let accepted = 0;
  while (runsOf(process).inject(event("fill"))) accepted++;
  assert.equal(accepted, 1000);
  const full = runsOf(process).deadLetters.list().at(-1)!;
  assert.equal(full.reason, "queue full");
  await process.stop();
  const redo = full.event.event_id;
  assert.equal(runsOf(process).deadLetters.size, 100, "the newest dead_letter_size letters are kept");
  runsOf(process).deadLetters.add(full);
  await process.start();
  assert.equal(await runsOf(process).redeliver([redo]), 1);
  await until(2);
  assert.equal(calls[1].event.event_id, redo);
  calls[1].finish();
  await process.stop();
});

Deno.test("runs are journaled: detail entries only at full, results and errors at checkpoint", async () => {
  for (const level of ["checkpoint", "full"] as const) {
    const journal = new ProcessJournal(new MemoryJournal(), { process: "p", level });
    let fail = false;
    const invoker: Invoker = () =>
      fail ? Promise.reject(new TypeError("bad")) : Promise.resolve({ response: "ok" });
    const { process } = processWith(invoker, {}, journal);
    await process.start();
    await runsOf(process).deliver(event({ n: 1 }));
    while (process.status().runs.runs_succeeded !== 1) await settle();
    fail = true;
    await runsOf(process).deliver(event({ n: 2 }));
    while (process.status().runs.runs_failed !== 1) await settle();
    await process.stop();
    const types = (await journal.read()).map((e) => e.entry_type).filter((t) => t !== "state_transition");
    const expected = level === "full"
      ? ["invocation_start", "invocation_result", "invocation_start", "error"]
      : ["invocation_result", "error"];
    assert.deepEqual(types, expected, level);
    const result = (await journal.read({ type: "invocation_result" }))[0].data;
    assert.equal(result.response, "ok");
    assert.equal(result.invocation, 1);
    assert.equal(typeof result.duration_ms, "number");
    assert.equal((await journal.read({ type: "error" }))[0].data.error_type, "TypeError");
  }
});

Deno.test("the process queue holds trigger_delivery.queue_capacity events, then refuses", async () => {
  const { invoker, until } = manualInvoker();
  const { process } = processWith(invoker, { trigger_delivery: { queue_capacity: 3 } });
  await process.start();
  await runsOf(process).deliver(event("first"));
  await until(1);
  let accepted = 0;
  while (runsOf(process).inject(event("fill"))) accepted++;
  assert.equal(accepted, 3);
  assert.equal(process.status().runs.queue_capacity, 3);
  assert.equal(runsOf(process).deadLetters.list().at(-1)!.reason, "queue full");
  await process.stop();
});
