import assert from "node:assert/strict";
import { tempDir } from "../_util/temp_dir.ts";
import { EventLedger } from "./event_ledger.ts";
import type { ProcessEvent } from "./process_event.ts";
import { Spool } from "./spool.ts";

function event(id: string, payload: unknown = { id }): ProcessEvent {
  return {
    trigger_id: "webhook-1",
    trigger_type: "webhook",
    event_id: id,
    timestamp: "2026-01-01T00:00:00.000Z",
    payload,
    metadata: {},
  };
}

/** A ledger on a file spool in `dir` (a new runtime reading what the last one wrote). */
async function opened(dir: string, capacity = 100) {
  const spool = new Spool({ dir });
  const ledger = new EventLedger(capacity);
  await ledger.open(spool.forProcess("p"), capacity);
  return { ledger, spool };
}

async function lines(dir: string): Promise<Array<Record<string, unknown>>> {
  const text = await Deno.readTextFile(`${dir}/p/events.jsonl`);
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test("after a crash, events not begun and retries come back in order; a run in flight is interrupted", async () => {
  await using dir = await tempDir();
  const { ledger, spool } = await opened(dir.path);
  for (const id of ["a", "b", "c", "d", "e"]) await ledger.accept(event(id));
  await ledger.begin("b", 1); // in flight when the runtime dies
  await ledger.begin("c", 2);
  await ledger.retry("c"); // failed twice, waiting for attempt 3
  await ledger.begin("d", 1);
  await ledger.settle("d"); // done
  await spool.close(); // what a SIGKILL leaves: every awaited write is in the file

  const { ledger: again, spool: spool2 } = await opened(dir.path);
  const { queued, interrupted } = again.recover();
  assert.deepEqual(queued.map((q) => `${q.event.event_id}@${q.attempt}`), ["a@1", "c@3", "e@1"]);
  assert.deepEqual(queued[0].event, event("a"), "the whole event comes back");
  assert.equal(interrupted, 1);
  const [letter] = again.deadLetters.list();
  assert.deepEqual({ ...letter, dead_lettered_at: "" }, {
    event: event("b"),
    reason: "interrupted",
    error: null,
    attempts: 1,
    dead_lettered_at: "",
  });
  await spool2.close();

  const { ledger: third, spool: spool3 } = await opened(dir.path);
  assert.deepEqual(third.deadLetters.list().map((l) => l.reason), ["interrupted"], "the letter is kept");
  assert.deepEqual(third.recover().queued.map((q) => q.event.event_id), ["a", "c", "e"]);
  await spool3.close();
});

Deno.test("state changes are small patch lines: the payload is written once", async () => {
  await using dir = await tempDir();
  const { ledger, spool } = await opened(dir.path);
  await ledger.accept(event("a", { big: "x".repeat(1000) }));
  await ledger.accept(event("a", { big: "x".repeat(1000) })); // idempotent
  await ledger.begin("a", 1);
  await ledger.retry("a");
  await ledger.deadLetter({
    event: event("a"),
    reason: "retries exhausted",
    error: "Error: down",
    attempts: 1,
  });
  await spool.close();
  const written = await lines(dir.path);
  assert.deepEqual(written.map((l) => l.op), ["put", "patch", "patch", "patch"]);
  assert.equal(written.filter((l) => JSON.stringify(l).includes("xxxx")).length, 1);
});

Deno.test("dead letters survive a restart, the newest dead_letter_size kept and the rest deleted", async () => {
  await using dir = await tempDir();
  const { ledger, spool } = await opened(dir.path);
  for (const id of ["1", "2", "3", "4", "5"]) {
    await ledger.accept(event(id));
    await ledger.deadLetter({ event: event(id), reason: "queue full", error: null, attempts: 0 });
    await new Promise((resolve) => setTimeout(resolve, 2)); // distinct dead_lettered_at
  }
  await spool.close();

  const { ledger: smaller, spool: spool2 } = await opened(dir.path, 3);
  assert.deepEqual(smaller.deadLetters.list().map((l) => l.event.event_id), ["3", "4", "5"]);
  assert.deepEqual(smaller.recover().queued, [], "letters are not queued again");
  await spool2.close();

  const { ledger: larger, spool: spool3 } = await opened(dir.path, 10);
  assert.deepEqual(
    larger.deadLetters.list().map((l) => l.event.event_id),
    ["3", "4", "5"],
    "1 and 2 are gone",
  );
  assert.equal(await larger.clear(), 3);
  await spool3.close();
  const { ledger: cleared, spool: spool4 } = await opened(dir.path, 10);
  assert.equal(cleared.deadLetters.size, 0);
  await spool4.close();
});

Deno.test("redelivered letters are accepted again and queued at the next start if the runtime dies first", async () => {
  await using dir = await tempDir();
  const { ledger, spool } = await opened(dir.path);
  for (const id of ["a", "b"]) {
    await ledger.deadLetter({ event: event(id), reason: "process stopped", error: null, attempts: 2 });
  }
  const { events, written } = ledger.redeliver(["b", "unknown"]);
  await written;
  assert.deepEqual(events.map((e) => e.event_id), ["b"]);
  assert.deepEqual(ledger.deadLetters.list().map((l) => l.event.event_id), ["a"]);
  await spool.close();

  const { ledger: again, spool: spool2 } = await opened(dir.path);
  assert.deepEqual(again.recover().queued.map((q) => `${q.event.event_id}@${q.attempt}`), ["b@1"]);
  assert.deepEqual(again.deadLetters.list().map((l) => l.event.event_id), ["a"]);
  await spool2.close();
});

Deno.test("stopping dead-letters every open event with the reason; a failed accept forgets the event", async () => {
  await using dir = await tempDir();
  const { ledger, spool } = await opened(dir.path);
  await Deno.mkdir(`${dir.path}/p/events.jsonl`, { recursive: true }); // the first write fails
  await assert.rejects(ledger.accept(event("lost")));
  assert.equal(ledger.openCount, 0);
  await Deno.remove(`${dir.path}/p/events.jsonl`);
  await ledger.accept(event("a"));
  await ledger.accept(event("b"));
  await ledger.begin("b", 1);
  assert.equal(await ledger.abandon("process stopped"), 2);
  assert.deepEqual(ledger.deadLetters.list().map((l) => `${l.event.event_id}:${l.attempts}`), ["a:0", "b:1"]);
  assert.equal(ledger.openCount, 0);
  await spool.close();
  const { ledger: again, spool: spool2 } = await opened(dir.path);
  assert.deepEqual(again.recover(), { queued: [], interrupted: 0 });
  assert.equal(again.deadLetters.size, 2);
  await spool2.close();
});

Deno.test("a dead_letter_size of 0 keeps no letter in the log", async () => {
  await using dir = await tempDir();
  const { ledger, spool } = await opened(dir.path, 0);
  await ledger.accept(event("a"));
  await ledger.deadLetter({ event: event("a"), reason: "no runner", error: null, attempts: 0 });
  assert.equal(ledger.deadLetters.total, 1);
  await spool.close();
  const { ledger: again, spool: spool2 } = await opened(dir.path, 10);
  assert.equal(again.deadLetters.size, 0);
  await spool2.close();
});
