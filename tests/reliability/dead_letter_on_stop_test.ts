/**
 * Issue 14 item 4, replayed against the real binary: "events answered 202 vanish". A process with a webhook
 * trigger and `concurrency: 1` whose model blocks accepts events until both queues are full: one run in
 * flight, 1,000 in the process queue, one held by the trigger's listener and 1,000 in the trigger's queue
 * (2,002 answered 202; the next ones 503). Before the fix a stop dead-lettered only the process queue and
 * 1,002 events vanished; restart and live trigger removal lost them the same way. Now every event answered
 * 202 either ran or is listed by `GET /processes/{name}/dead-letters`, exactly once. (This replay also
 * caught POSTs racing the event-log writes: a few were queued past the webhook's capacity without being
 * written first, so exactly 2,002 accepted is asserted.)
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { ProcessConfigInput } from "../../src/api/client.ts";
import { startModelServer } from "../../src/models/testing/mod.ts";
import { until } from "../_agent_harness.ts";
import { tempDir } from "../_cli_harness.ts";
import { freePort } from "../_ports.ts";
import { type DataDirRuntime, runtimeOn } from "./_runtime_on.ts";

/** One in flight, the process queue (1,000), the event a listener holds, the webhook's queue (1,000). */
const CAPACITY = 1 + 1_000 + 1 + 1_000;

/** Holds model answers until released: `allow(n)` lets n through, `open()` all of them. */
class Gate {
  #allowed = 0;
  #open = false;
  #waiting: Array<() => void> = [];

  wait(): Promise<void> {
    if (this.#open) return Promise.resolve();
    if (this.#allowed > 0) {
      this.#allowed--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  allow(count: number): void {
    for (; count > 0 && this.#waiting.length > 0; count--) this.#waiting.shift()!();
    this.#allowed += count;
  }

  open(): void {
    this.#open = true;
    for (const release of this.#waiting.splice(0)) release();
  }
}

/** A runtime, a blocking model and a process `name` with a webhook trigger, torn down in order. */
async function setUp(name: string) {
  const dir = await tempDir();
  const gate = new Gate();
  const model = startModelServer({
    respond: async () => (await gate.wait(), { text: "done" }),
    record: false,
  });
  let runtime: DataDirRuntime | undefined;
  const port = freePort();
  try {
    runtime = await runtimeOn(join(dir.path, "state"), {
      root: dir.path,
      env: { OPENAI_COMPATIBLE_BASE_URL: model.url },
    });
    const config: ProcessConfigInput = {
      model: "openai-compatible:blocking",
      instructions: "Handle the event.",
      concurrency: 1,
      trigger_delivery: { dead_letter_size: 10_000 },
      triggers: [{ type: "webhook", webhook_path: "/hook", webhook_port: port }],
    };
    assert.equal((await runtime.client.deploy(name, config, { start: true })).state, "running");
  } catch (error) {
    gate.open();
    await runtime?.[Symbol.asyncDispose]();
    await model.close();
    await dir[Symbol.asyncDispose]();
    throw error;
  }
  const started = runtime;
  return {
    runtime: started,
    port,
    gate,
    async [Symbol.asyncDispose]() {
      gate.open();
      await started[Symbol.asyncDispose]();
      await model.close();
      await dir[Symbol.asyncDispose]();
    },
  };
}

/**
 * POSTs events (8 at a time) until 40 in a row were refused with 503 queue full, and answers the ids of
 * those accepted with 202.
 */
async function fill(port: number): Promise<string[]> {
  const accepted: string[] = [];
  const client = Deno.createHttpClient({});
  let refusedInARow = 0;
  let sent = 0;
  const post = async () => {
    while (refusedInARow < 40 && sent < CAPACITY + 200) {
      const n = sent++;
      const answer = await fetch(`http://127.0.0.1:${port}/hook`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ n }),
        client,
      });
      const body = await answer.json();
      if (answer.status === 202) {
        accepted.push(body.event_id);
        refusedInARow = 0;
      } else {
        assert.equal(answer.status, 503, JSON.stringify(body));
        assert.equal(body.message, "queue full");
        refusedInARow++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: 8 }, post));
  } finally {
    client.close();
  }
  return accepted;
}

/** Asserts every accepted event ran or is dead-lettered (`reason`), exactly once. */
async function assertAccounted(
  runtime: DataDirRuntime,
  name: string,
  options: { accepted: string[]; ran: number; reason: string },
): Promise<void> {
  const { accepted, ran, reason } = options;
  const { dead_letters: letters, count } = await runtime.client.listDeadLetters(name);
  const ids = letters.map((letter) => letter.event.event_id);
  assert.equal(new Set(ids).size, ids.length, "no event is dead-lettered twice");
  const known = new Set(accepted);
  assert.deepEqual(ids.filter((id) => !known.has(id)), [], "only accepted events are dead-lettered");
  assert.equal(
    count,
    accepted.length - ran,
    `${accepted.length} accepted = ${ran} ran + ${count} dead letters`,
  );
  assert.deepEqual([...new Set(letters.map((letter) => letter.reason))], [reason]);
}

async function filled(runtime: DataDirRuntime, name: string, port: number): Promise<string[]> {
  const accepted = await fill(port);
  assert.equal(accepted.length, CAPACITY, "accepted until both queues were full, then 503");
  const status = await runtime.client.getProcess(name);
  assert.equal(status.runs.in_flight, 1);
  assert.equal(status.runs.queue_size, 1_000);
  assert.equal(
    (status.triggers as { triggers: Array<{ queue_size: number }> }).triggers[0].queue_size,
    1_000,
    "the webhook's queue never passes its capacity",
  );
  return accepted;
}

Deno.test("stop with both queues full: all 2,002 accepted events are dead-lettered, none vanishes", async () => {
  await using setup = await setUp("stopper");
  const { runtime, port } = setup;
  const accepted = await filled(runtime, "stopper", port);
  assert.equal((await runtime.client.stopProcess("stopper")).state, "stopped");
  await assertAccounted(runtime, "stopper", { accepted, ran: 0, reason: "process stopped" });
});

Deno.test("restart with both queues full: all accepted events are dead-lettered and the process runs again", async () => {
  await using setup = await setUp("restarter");
  const { runtime, port, gate } = setup;
  const accepted = await filled(runtime, "restarter", port);
  assert.equal((await runtime.client.restartProcess("restarter")).state, "running");
  await assertAccounted(runtime, "restarter", { accepted, ran: 0, reason: "process stopped" });
  // The webhook listens again and a new event runs.
  gate.open();
  const answer = await fetch(`http://127.0.0.1:${port}/hook`, { method: "POST", body: "{}" });
  assert.equal(answer.status, 202);
  await answer.body?.cancel();
  await until(
    "the new event ran",
    async () => (await runtime.client.getProcess("restarter")).runs.runs_succeeded === 1,
  );
});

Deno.test("live removal of the webhook trigger hands its events to the process: 5 run, the rest are dead-lettered at stop", async () => {
  await using setup = await setUp("remover");
  const { runtime, port, gate } = setup;
  const accepted = await filled(runtime, "remover", port);
  const [trigger] = (await runtime.client.listTriggers("remover")).triggers;
  assert.equal((await runtime.client.removeTrigger("remover", trigger.id)).trigger_removed, trigger.id);
  await assert.rejects(
    fetch(`http://127.0.0.1:${port}/hook`, { method: "POST", body: "{}" }),
    "the port is closed",
  );
  // A few run, then the process stops with the rest still queued.
  gate.allow(5);
  await until(
    "five runs",
    async () => (await runtime.client.getProcess("remover")).runs.runs_succeeded === 5,
  );
  assert.equal((await runtime.client.stopProcess("remover")).state, "stopped");
  const ran = (await runtime.client.listRuns("remover")).runs.filter((run) => run.status === "succeeded")
    .map((run) => run.event_id);
  assert.equal(new Set(ran).size, 5);
  await assertAccounted(runtime, "remover", {
    accepted: accepted.filter((id) => !ran.includes(id)),
    ran: 0,
    reason: "process stopped",
  });
});
