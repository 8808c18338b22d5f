import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { Deadlines } from "./deadlines.ts";

Deno.test("work that settles in time wins the race and the sweep timer stops", async () => {
  const clock = FakeTimers.install({ toFake: ["setInterval", "clearInterval", "Date"] });
  try {
    const deadlines = new Deadlines(100);
    const work = Promise.withResolvers<string>();
    const raced = deadlines.race(work.promise, 1_000, () => "late");
    assert.equal(clock.countTimers(), 1);
    work.resolve("done");
    assert.equal(await raced, "done");
    assert.equal(deadlines.size, 0);
    assert.equal(clock.countTimers(), 1, "the sweep lingers until it finds nothing pending");
    await clock.tickAsync(100);
    assert.equal(clock.countTimers(), 0);
    await assert.rejects(deadlines.race(Promise.reject(new Error("x")), 1_000, () => "late"), /x/);
  } finally {
    clock.uninstall();
  }
});

Deno.test("an expired deadline answers onExpired within one resolution, sharing one timer", async () => {
  const clock = FakeTimers.install({ toFake: ["setInterval", "clearInterval", "Date"] });
  try {
    const deadlines = new Deadlines(100);
    const never = new Promise<string>(() => undefined);
    const results: string[] = [];
    void deadlines.race(never, 300, () => "a").then((v) => results.push(v));
    void deadlines.race(never, 1_000, () => "b").then((v) => results.push(v));
    assert.equal(clock.countTimers(), 1);
    await clock.tickAsync(299);
    assert.deepEqual(results, []);
    await clock.tickAsync(100);
    assert.deepEqual(results, ["a"]);
    await clock.tickAsync(700);
    assert.deepEqual(results, ["a", "b"]);
    await clock.tickAsync(100);
    assert.equal(clock.countTimers(), 0);
  } finally {
    clock.uninstall();
  }
});
