import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { tempDir } from "../_util/temp_dir.ts";
import { AgentProcess, runsOf } from "./process.ts";
import type { Invoker, ProcessEvent, RunRequest } from "./process_event.ts";
import { Spool } from "./spool.ts";
import { testConfig } from "./_test_config.ts";

function event(id: string): ProcessEvent {
  return {
    trigger_id: "t-1",
    trigger_type: "event",
    event_id: id,
    timestamp: new Date().toISOString(),
    payload: { id },
    metadata: {},
  };
}

/** Records runs; runs of `blocking` ids wait until aborted. */
function recordingInvoker(blocking: ReadonlySet<string> = new Set()) {
  const runs: RunRequest[] = [];
  const invoker: Invoker = (run) => {
    runs.push(run);
    if (!blocking.has(run.event.event_id)) return Promise.resolve({ response: "ok" });
    return new Promise((_, reject) => run.signal.addEventListener("abort", () => reject(run.signal.reason)));
  };
  const until = async (count: number) => {
    const deadline = Date.now() + 5_000;
    while (runs.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${runs.length} runs`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return { invoker, runs, until };
}

async function deployed(spool: Spool, invoker: Invoker, config: Record<string, unknown> = {}) {
  const sink = memorySink();
  const process = new AgentProcess({
    name: "p",
    config: testConfig(config),
    invoker,
    logger: new Logger("t", { sink }),
  });
  await process.openSpool(spool.forProcess("p"));
  return { process, sink };
}

Deno.test("after a crash the next start runs events not begun first, in order, and dead-letters the one in flight", async () => {
  await using dir = await tempDir();
  const first = recordingInvoker(new Set(["e1"]));
  const spool = new Spool({ dir: dir.path });
  const { process: crashed } = await deployed(spool, first.invoker);
  await crashed.start();
  for (const id of ["e1", "e2", "e3"]) await runsOf(crashed).deliver(event(id));
  await first.until(1);
  await spool.close(); // the runtime dies: nothing it does from here on reaches the file

  const second = recordingInvoker();
  const spool2 = new Spool({ dir: dir.path });
  const { process, sink } = await deployed(spool2, second.invoker);
  await process.start();
  await runsOf(process).deliver(event("e4"));
  await second.until(3);
  assert.deepEqual(second.runs.map((r) => `${r.event.event_id}@${r.attempt}`), ["e2@1", "e3@1", "e4@1"]);
  const letters = process.deadLetters.list();
  assert.deepEqual(letters.map((l) => `${l.event.event_id}:${l.reason}:${l.attempts}`), ["e1:interrupted:1"]);
  assert.ok(sink.records.some((r) => r.message === "events recovered" && r.fields?.interrupted === 1));
  await process.stop();
  await spool2.close();
  await crashed.stop(); // its writes fail (closed log) and are only logged

  const spool3 = new Spool({ dir: dir.path });
  const { process: third } = await deployed(spool3, recordingInvoker().invoker);
  assert.deepEqual(
    third.deadLetters.list().map((l) => l.event.event_id),
    ["e1"],
    "settled events stay settled",
  );
  assert.equal(await third.deadLetters.redeliver(), 0, "a process not started takes no letter back");
  await third.start();
  assert.equal(await third.deadLetters.redeliver(["e1"]), 1);
  assert.equal(third.deadLetters.size, 0);
  await third.stop();
  await spool3.close();
});

Deno.test("a stop dead-letters the process queue, the run in flight and pending retries; a restart loses none", async () => {
  await using dir = await tempDir();
  const { invoker, until } = recordingInvoker(new Set(["flight"]));
  const failing: Invoker = (run) =>
    run.event.event_id === "retry" ? Promise.reject(new Error("down")) : invoker(run);
  const spool = new Spool({ dir: dir.path });
  const { process } = await deployed(spool, failing, {
    trigger_delivery: { max_retries: 3, retry_backoff: 600, retry_backoff_max: 600, dead_letter_size: 10 },
  });
  await process.start();
  await runsOf(process).deliver(event("retry"));
  while (process.status().runs.pending_retries !== 1) await new Promise((r) => setTimeout(r, 5));
  await runsOf(process).deliver(event("flight"));
  await until(1);
  await runsOf(process).deliver(event("queued"));
  await process.restart();
  const letters = process.deadLetters.list().map((l) => `${l.event.event_id}:${l.reason}:${l.attempts}`);
  assert.deepEqual(letters.sort(), [
    "flight:process stopped:1",
    "queued:process stopped:0",
    "retry:process stopped:1",
  ]);
  assert.equal(process.status().runs.queue_size, 0, "a restart does not run stopped events by itself");
  await process.stop();
  await spool.close();
  const spool2 = new Spool({ dir: dir.path });
  const { process: again } = await deployed(spool2, invoker);
  assert.equal(again.deadLetters.size, 3, "the letters are on disk");
  assert.equal(await again.deadLetters.clear(), 3);
  await spool2.close();
});
