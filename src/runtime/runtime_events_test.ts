import assert from "node:assert/strict";
import { type RuntimeEvent, RuntimeEventLog } from "./runtime_events.ts";

function removed(log: RuntimeEventLog, process: string): RuntimeEvent | undefined {
  return log.emit("process.removed", { process, process_id: `id-${process}` });
}

Deno.test("runtime events get increasing ids from 1 and an ISO time unless given one", () => {
  const log = new RuntimeEventLog();
  const first = removed(log, "a")!;
  const second = log.emit("process.state", {
    process: "a",
    state: "running",
    previous: "starting",
    reason: "started",
    at: "2026-01-02T03:04:05.000Z",
  })!;
  assert.equal(first.id, 1);
  assert.equal(second.id, 2);
  assert.equal(log.lastId, 2);
  assert.match(first.data.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(second.data.at, "2026-01-02T03:04:05.000Z");
  assert.deepEqual(second.data, {
    process: "a",
    state: "running",
    previous: "starting",
    reason: "started",
    at: "2026-01-02T03:04:05.000Z",
  });
});

Deno.test("runtime events replay the kept events after an id", () => {
  const log = new RuntimeEventLog(5);
  for (const name of ["a", "b", "c", "d"]) removed(log, name);
  assert.deepEqual(log.since(2).events.map((e) => e.id), [3, 4]);
  assert.equal(log.since(2).reset, undefined);
  assert.deepEqual(log.since(4), { events: [] });
  assert.deepEqual(log.since(0).events.map((e) => e.id), [1, 2, 3, 4]);
});

Deno.test("runtime events keep the newest ones only and answer a gap for an id older than the ring", () => {
  const log = new RuntimeEventLog(3);
  for (let i = 0; i < 7; i++) removed(log, `p${i}`);
  assert.deepEqual(log.since(4).events.map((e) => e.id), [5, 6, 7]);
  assert.equal(log.since(4).reset, undefined);
  const gap = log.since(3);
  assert.equal(gap.reset, "gap");
  assert.deepEqual(gap.events.map((e) => e.id), [5, 6, 7]);
  assert.equal(log.since(0).reset, "gap");
});

Deno.test("runtime events answer unknown_id for an id ahead of the runtime (a restarted runtime)", () => {
  const log = new RuntimeEventLog();
  removed(log, "a");
  const replay = log.since(500);
  assert.equal(replay.reset, "unknown_id");
  assert.deepEqual(replay.events.map((e) => e.id), [1]);
  assert.deepEqual(new RuntimeEventLog().since(0), { events: [] });
});

Deno.test("runtime event subscribers see each event until they unsubscribe; a throwing one is dropped", () => {
  const log = new RuntimeEventLog();
  const seen: number[] = [];
  const stop = log.subscribe({ event: (e) => seen.push(e.id), close: () => {} });
  log.subscribe({
    event: () => {
      throw new Error("reader failed");
    },
    close: () => {},
  });
  assert.equal(log.subscriberCount, 2);
  removed(log, "a");
  assert.equal(log.subscriberCount, 1);
  stop();
  removed(log, "b");
  assert.deepEqual(seen, [1]);
  assert.equal(log.subscriberCount, 0);
});

Deno.test("closing the runtime events lets readers go and keeps nothing after", () => {
  const log = new RuntimeEventLog();
  let closed = 0;
  log.subscribe({ event: () => {}, close: () => closed++ });
  log.disconnectAll();
  assert.equal(closed, 1);
  assert.equal(log.subscriberCount, 0);
  log.subscribe({ event: () => {}, close: () => closed++ });
  log.close();
  assert.equal(closed, 2);
  log.subscribe({ event: () => {}, close: () => closed++ });
  assert.equal(closed, 3, "a reader after close is closed at once");
  assert.equal(removed(log, "late"), undefined);
  assert.equal(log.lastId, 0);
});

Deno.test("runtime events refuse a capacity that is not a positive integer", () => {
  assert.throws(() => new RuntimeEventLog(0), RangeError);
  assert.throws(() => new RuntimeEventLog(1.5), RangeError);
});
