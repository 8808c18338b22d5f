import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { tempDir } from "../_util/temp_dir.ts";
import { freePort } from "../../tests/_ports.ts";
import {
  AgentRuntime,
  type Invoker,
  parseProcessConfig,
  type ProcessConfig,
  type RunRequest,
  Spool,
} from "../runtime/mod.ts";
import { runsOf } from "../runtime/process.ts";
import { EventBus } from "./event_bus.ts";
import { addTrigger, removeTrigger } from "./trigger_admin.ts";
import { createTriggersPart } from "./triggers_part.ts";

/** The `kind` an event was emitted with. */
function kindOf(event: { payload: unknown }): string | undefined {
  return (event.payload as { data?: { kind?: string } }).data?.kind;
}

function config(input: Record<string, unknown>): ProcessConfig {
  const parsed = parseProcessConfig(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.config;
}

/** A runtime with triggers; runs of events whose payload data is "block" wait for `release` or a stop. */
function setup(spool?: Spool) {
  const eventBus = new EventBus();
  const runs: RunRequest[] = [];
  const gate = Promise.withResolvers<void>();
  const invoker: Invoker = (run) => {
    runs.push(run);
    const data = kindOf(run.event);
    if (data === "fail") return Promise.reject(new Error("down"));
    if (data !== "block") return Promise.resolve({ response: "ok" });
    return new Promise((resolve, reject) => {
      gate.promise.then(() => resolve({ response: "ok" }));
      run.signal.addEventListener("abort", () => reject(run.signal.reason));
    });
  };
  const runtime = new AgentRuntime({
    logger: new Logger("t", { sink: memorySink() }),
    parts: [createTriggersPart({ eventBus })],
    invoker,
    spool,
  });
  return { eventBus, runs, runtime, release: () => gate.resolve() };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const emit = (bus: EventBus, kind: string) => bus.emit({ event_type: "tick", data: { kind } });
const triggerQueue = (status: Record<string, unknown>) =>
  (status.triggers as { triggers: Array<{ queue_size: number }> }).triggers[0].queue_size;

Deno.test("a stop dead-letters the trigger queue, the held event, the process queue, the retry and the run", async () => {
  await using dir = await tempDir();
  const spool = new Spool({ dir: dir.path });
  const { eventBus, runs, runtime } = setup(spool);
  const process = await runtime.deploy(
    "p",
    config({
      triggers: [{ type: "event", event_type: "tick" }],
      trigger_delivery: {
        max_retries: 1,
        retry_backoff: 600,
        retry_backoff_max: 600,
        dead_letter_size: 2000,
      },
    }),
    { start: true },
  );
  emit(eventBus, "fail");
  await until(() => process.status().runs.pending_retries === 1, "the retry");
  emit(eventBus, "block");
  await until(() => runs.length === 2, "the blocking run");
  for (let i = 0; i < 1000; i++) {
    assert.ok(runsOf(process).inject({ ...runs[1].event, event_id: `fill-${i}` }));
  }
  emit(eventBus, "held");
  emit(eventBus, "queued-1");
  emit(eventBus, "queued-2");
  await until(() => triggerQueue(process.status()) === 2, "two events in the trigger queue");
  await runtime.stop("p");

  const letters = process.deadLetters.list();
  assert.equal(letters.length, 1005, "nothing accepted vanished");
  assert.ok(letters.every((l) => l.reason === "process stopped"));
  const data = (l: (typeof letters)[number]) => kindOf(l.event);
  assert.deepEqual(
    letters.filter((l) => !l.event.event_id.startsWith("fill-")).map((l) => `${data(l)}:${l.attempts}`)
      .sort(),
    ["block:1", "fail:1", "held:0", "queued-1:0", "queued-2:0"],
  );
  await runtime.close();
  await spool.close();

  const again = new Spool({ dir: dir.path });
  const { runtime: second } = setup(again);
  const reopened = await second.deploy("p", config({ trigger_delivery: { dead_letter_size: 2000 } }));
  assert.equal(reopened.deadLetters.size, 1005, "the letters are in events.jsonl");
  await second.close();
  await again.close();
});

Deno.test("removing a trigger hands its queued and held events to the process queue, in order", async () => {
  const { eventBus, runs, runtime, release } = setup();
  const process = await runtime.deploy("p", config({}), { start: true });
  const raw = { type: "event", event_type: "tick" };
  const { trigger_id } = await addTrigger(runtime, process, {
    config: config({ triggers: [raw] }).triggers[0],
    raw,
  });
  emit(eventBus, "block");
  await until(() => runs.length === 1, "the blocking run");
  for (let i = 0; i < 1000; i++) {
    assert.ok(runsOf(process).inject({ ...runs[0].event, event_id: `fill-${i}` }));
  }
  emit(eventBus, "held");
  emit(eventBus, "queued-1");
  emit(eventBus, "queued-2");
  await until(() => triggerQueue(process.status()) === 2, "two events in the trigger queue");
  await removeTrigger(runtime, process, { triggerId: trigger_id });
  release();
  await until(() => runs.length === 1004, "every event to run");
  const tail = runs.slice(-3).map((r) => kindOf(r.event));
  assert.deepEqual(tail, ["held", "queued-1", "queued-2"]);
  assert.equal(process.deadLetters.size, 0);
  await runtime.close();
});

Deno.test("a webhook 202 means the event is in events.jsonl; a failed write answers 503 and queues nothing", async () => {
  await using dir = await tempDir();
  const spool = new Spool({ dir: dir.path });
  const { runs, runtime } = setup(spool);
  const port = freePort();
  const process = await runtime.deploy(
    "p",
    config({ triggers: [{ type: "webhook", webhook_port: port, webhook_host: "127.0.0.1" }] }),
    { start: true },
  );
  await process.suspend(); // hold the events: the test reads the log before any run settles them
  const post = (kind: string) =>
    fetch(`http://127.0.0.1:${port}/webhook`, { method: "POST", body: JSON.stringify({ kind }) });
  await Deno.mkdir(`${dir.path}/p/events.jsonl`, { recursive: true }); // a directory where the log goes
  const refused = await post("refused");
  assert.equal(refused.status, 503);
  assert.deepEqual(await refused.json(), { status: "error", message: "event could not be recorded" });
  assert.equal(triggerQueue(process.status()), 0, "nothing was queued");
  await Deno.remove(`${dir.path}/p/events.jsonl`);

  const accepted = await post("first");
  assert.equal(accepted.status, 202);
  const { event_id } = await accepted.json();
  const lines = (await Deno.readTextFile(`${dir.path}/p/events.jsonl`)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const put = lines.find((l) => l.op === "put" && l.key === event_id);
  assert.deepEqual(put?.value.event.payload, { kind: "first" });
  assert.equal(put?.value.state, "accepted");
  await process.resume();
  await until(() => runs.length === 1, "the accepted event to run");
  assert.equal(runs[0].event.event_id, event_id);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(runs.length, 1, "the refused event never runs");
  await runtime.close();
  await spool.close();
});
