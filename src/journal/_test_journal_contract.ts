/**
 * The behaviour every {@linkcode Journal} backend must show, as a suite registered per backend.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Journal } from "./types.ts";

/** A journal under test plus whatever cleans it up (closing it, removing its directory). */
export interface JournalFixture extends AsyncDisposable {
  /** The journal under test. */
  readonly journal: Journal;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Registers the contract tests for a backend; `open` makes a fresh, empty journal per test. */
export function journalContract(name: string, open: () => Promise<JournalFixture>): void {
  Deno.test(`${name} journal: append returns the entry with a uuid, the process, type and an ISO timestamp`, async () => {
    await using fx = await open();
    const before = Date.now();
    const entry = await fx.journal.append("writer", "state_transition", { to: "running" });
    assert.match(entry.entry_id, UUID);
    assert.equal(entry.process, "writer");
    assert.equal(entry.entry_type, "state_transition");
    assert.deepEqual(entry.data, { to: "running" });
    assert.equal(new Date(entry.timestamp).toISOString(), entry.timestamp);
    assert.ok(Date.parse(entry.timestamp) >= before - 1 && Date.parse(entry.timestamp) <= Date.now());
    const other = await fx.journal.append("writer", "state_transition", { to: "idle" });
    assert.notEqual(other.entry_id, entry.entry_id);
  });

  Deno.test(`${name} journal: read returns entries oldest first and limit keeps the newest`, async () => {
    await using fx = await open();
    for (let i = 0; i < 5; i++) await fx.journal.append("writer", "step", { i });
    const all = await fx.journal.read("writer");
    assert.deepEqual(all.map((e) => e.data.i), [0, 1, 2, 3, 4]);
    const last = await fx.journal.read("writer", { limit: 2 });
    assert.deepEqual(last.map((e) => e.data.i), [3, 4]);
    const more = await fx.journal.read("writer", { limit: 50 });
    assert.deepEqual(more, all);
  });

  Deno.test(`${name} journal: read filters by type before applying the limit`, async () => {
    await using fx = await open();
    const types = ["a", "b", "a", "b", "b", "a", "b"];
    for (const [i, type] of types.entries()) await fx.journal.append("writer", type, { i });
    const newestA = await fx.journal.read("writer", { type: "a", limit: 2 });
    assert.deepEqual(newestA.map((e) => e.data.i), [2, 5]);
    const allA = await fx.journal.read("writer", { type: "a" });
    assert.deepEqual(allA.map((e) => e.data.i), [0, 2, 5]);
    assert.deepEqual(await fx.journal.read("writer", { type: "missing" }), []);
  });

  Deno.test(`${name} journal: read rejects a limit that is not a positive integer`, async () => {
    await using fx = await open();
    await fx.journal.append("writer", "step", {});
    for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await assert.rejects(fx.journal.read("writer", { limit }), RangeError, `limit ${limit}`);
    }
  });

  Deno.test(`${name} journal: get finds an entry by id and returns undefined for unknown ids`, async () => {
    await using fx = await open();
    await fx.journal.append("writer", "step", { i: 0 });
    const second = await fx.journal.append("writer", "step", { i: 1 });
    await fx.journal.append("writer", "step", { i: 2 });
    assert.deepEqual(await fx.journal.get("writer", second.entry_id), second);
    assert.equal(await fx.journal.get("writer", crypto.randomUUID()), undefined);
  });

  Deno.test(`${name} journal: entries of one process are invisible to another`, async () => {
    await using fx = await open();
    const a = await fx.journal.append("alpha", "step", { who: "alpha" });
    await fx.journal.append("beta", "step", { who: "beta" });
    assert.deepEqual((await fx.journal.read("alpha")).map((e) => e.data.who), ["alpha"]);
    assert.deepEqual((await fx.journal.read("beta")).map((e) => e.data.who), ["beta"]);
    assert.equal(await fx.journal.get("beta", a.entry_id), undefined);
    assert.deepEqual(await fx.journal.read("gamma"), []);
  });

  Deno.test(`${name} journal: stored data is a copy that caller mutations do not reach`, async () => {
    await using fx = await open();
    const data = { nested: { n: 1 }, list: [1, 2] };
    const entry = await fx.journal.append("writer", "step", data);
    data.nested.n = 99;
    data.list.push(3);
    entry.data.extra = true;
    const [read] = await fx.journal.read("writer");
    (read.data.nested as { n: number }).n = 42;
    const [again] = await fx.journal.read("writer");
    assert.deepEqual(again.data, { nested: { n: 1 }, list: [1, 2] });
    assert.deepEqual((await fx.journal.get("writer", entry.entry_id))?.data, {
      nested: { n: 1 },
      list: [1, 2],
    });
  });

  Deno.test(`${name} journal: 200 concurrent appends are all stored in call order`, async () => {
    await using fx = await open();
    const count = 200;
    const appended = await Promise.all(
      Array.from({ length: count }, (_, i) => fx.journal.append("writer", "step", { i })),
    );
    assert.equal(new Set(appended.map((e) => e.entry_id)).size, count);
    const read = await fx.journal.read("writer");
    assert.deepEqual(read.map((e) => e.data.i), Array.from({ length: count }, (_, i) => i));
    assert.deepEqual(read.map((e) => e.entry_id), appended.map((e) => e.entry_id));
  });

  Deno.test(`${name} journal: stopAt ends a read at the newest entry it accepts, after type and before limit`, async () => {
    await using fx = await open();
    const types = ["mark", "step", "mark", "step", "step", "other", "step"];
    for (const [i, type] of types.entries()) await fx.journal.append("writer", type, { i });
    const isMark = (entry: { entry_type: string }) => entry.entry_type === "mark";
    const since = await fx.journal.read("writer", { stopAt: isMark });
    assert.deepEqual(since.map((e) => e.data.i), [2, 3, 4, 5, 6]);
    assert.deepEqual(since, (await fx.journal.read("writer")).slice(2));
    const steps = await fx.journal.read("writer", { type: "step", stopAt: (e) => e.data.i === 3 });
    assert.deepEqual(steps.map((e) => e.data.i), [3, 4, 6]);
    const limited = await fx.journal.read("writer", { stopAt: isMark, limit: 2 });
    assert.deepEqual(limited.map((e) => e.data.i), [5, 6]);
    const never = await fx.journal.read("writer", { stopAt: () => false });
    assert.deepEqual(never.map((e) => e.data.i), [0, 1, 2, 3, 4, 5, 6]);
    const seen: number[] = [];
    await fx.journal.read("writer", { stopAt: (e) => (seen.push(e.data.i as number), e.data.i === 4) });
    assert.deepEqual(seen.slice(0, 3), [6, 5, 4], "entries are offered newest first");
    assert.deepEqual(await fx.journal.read("nobody", { stopAt: isMark }), []);
  });

  Deno.test(`${name} journal: a read during a burst of appends sees whole entries only, all of those before it`, async () => {
    await using fx = await open();
    const first = await Promise.all(
      Array.from(
        { length: 50 },
        (_, i) => fx.journal.append("writer", "step", { i, text: "x".repeat(i * 40) }),
      ),
    );
    const reading = fx.journal.read("writer");
    const second = Promise.all(
      Array.from({ length: 50 }, (_, i) => fx.journal.append("writer", "step", { i: 50 + i })),
    );
    const read = await reading;
    await second;
    assert.ok(read.length >= 50 && read.length <= 100, `read ${read.length}`);
    assert.deepEqual(read.slice(0, 50), first);
    assert.deepEqual(read.map((e) => e.data.i), Array.from({ length: read.length }, (_, i) => i));
  });

  Deno.test(`${name} journal: a closed journal rejects append, read and get; closing twice is fine`, async () => {
    await using fx = await open();
    const entry = await fx.journal.append("writer", "step", {});
    await fx.journal.close();
    await fx.journal.close();
    await assert.rejects(fx.journal.append("writer", "step", {}), /closed/);
    await assert.rejects(fx.journal.read("writer"), /closed/);
    await assert.rejects(fx.journal.get("writer", entry.entry_id), /closed/);
  });
}
