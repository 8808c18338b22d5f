import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { Logger, memorySink } from "../log.ts";
import {
  CRON_MAX_SLEEP_MS,
  CronTrigger,
  type CronTriggerPayload,
  defaultCronTriggerId,
} from "./cron_trigger.ts";
import { TriggerCancelledError } from "./types.ts";

const HOUR = 3_600_000;

/** Runs `body` with a fake clock at `now`, uninstalling it afterwards. */
async function withClock(now: string, body: (clock: FakeTimers.Clock) => Promise<void>): Promise<void> {
  const clock = FakeTimers.install({ now: Date.parse(now), toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    await body(clock);
  } finally {
    clock.uninstall();
  }
}

/** Scheduled times of every event waiting in the trigger's queue. */
async function drain(trigger: CronTrigger): Promise<string[]> {
  const times: string[] = [];
  while (trigger.queueSize > 0) {
    times.push(((await trigger.waitForNext()).payload as CronTriggerPayload).scheduled_time);
  }
  return times;
}

Deno.test("cron trigger fires at each scheduled time in UTC with a +00:00 offset", async () => {
  await withClock("2026-01-01T08:30:00Z", async (clock) => {
    const trigger = new CronTrigger({ cronExpression: "0 9 * * *" });
    await trigger.start();
    assert.equal(trigger.nextFireTime?.toISOString(), "2026-01-01T09:00:00.000Z");
    clock.tick(30 * 60_000 - 1);
    assert.equal(trigger.queueSize, 0);
    clock.tick(1);
    const event = await trigger.waitForNext();
    assert.equal(event.trigger_type, "cron");
    assert.equal(event.trigger_id, defaultCronTriggerId("0 9 * * *", null));
    assert.deepEqual(event.payload, {
      scheduled_time: "2026-01-01T09:00:00+00:00",
      cron_expression: "0 9 * * *",
      timezone: "UTC",
    });
    clock.tick(24 * HOUR);
    assert.deepEqual(await drain(trigger), ["2026-01-02T09:00:00+00:00"]);
    await trigger.stop();
  });
});

Deno.test("cron trigger reads the schedule in a named time zone and reports its offset", async () => {
  await withClock("2026-11-21T00:00:00Z", async (clock) => {
    const berlin = new CronTrigger({ cronExpression: "0 9 * * *", timezone: "Europe/Berlin" });
    const kolkata = new CronTrigger({ cronExpression: "0 9 * * *", timezone: "Asia/Kolkata" });
    const newYork = new CronTrigger({ cronExpression: "0 9 * * *", timezone: "America/New_York" });
    for (const t of [berlin, kolkata, newYork]) await t.start();
    assert.equal(berlin.nextFireTime?.toISOString(), "2026-11-21T08:00:00.000Z");
    clock.tick(16 * HOUR);
    assert.deepEqual(await drain(kolkata), ["2026-11-21T09:00:00+05:30"]);
    assert.deepEqual(await drain(berlin), ["2026-11-21T09:00:00+01:00"]);
    assert.deepEqual(await drain(newYork), ["2026-11-21T09:00:00-05:00"]);
    const event = berlin.waitForNext();
    clock.tick(24 * HOUR);
    assert.deepEqual((await event).payload, {
      scheduled_time: "2026-11-22T09:00:00+01:00",
      cron_expression: "0 9 * * *",
      timezone: "Europe/Berlin",
    });
    for (const t of [berlin, kolkata, newYork]) await t.stop();
  });
});

Deno.test("cron trigger keeps local wall time across the DST change in Europe/Berlin", async () => {
  await withClock("2026-03-27T12:00:00Z", async (clock) => {
    const daily = new CronTrigger({ cronExpression: "0 9 * * *", timezone: "Europe/Berlin" });
    await daily.start();
    clock.tick(68 * HOUR); // to 2026-03-30T08:00Z, past the 02:00 -> 03:00 jump of 2026-03-29
    assert.deepEqual(await drain(daily), [
      "2026-03-28T09:00:00+01:00",
      "2026-03-29T09:00:00+02:00",
      "2026-03-30T09:00:00+02:00",
    ]);
    await daily.stop();
  });
  await withClock("2026-03-28T23:30:00Z", async (clock) => {
    const hourly = new CronTrigger({ cronExpression: "0 * * * *", timezone: "Europe/Berlin", capacity: 5 });
    await hourly.start();
    clock.tick(3 * HOUR);
    assert.deepEqual(await drain(hourly), [
      "2026-03-29T01:00:00+01:00",
      "2026-03-29T03:00:00+02:00",
      "2026-03-29T04:00:00+02:00",
    ]);
    await hourly.stop();
  });
});

Deno.test("cron trigger fires both occurrences of a repeated hour when Europe/Berlin leaves DST", async () => {
  await withClock("2026-10-24T23:30:00Z", async (clock) => {
    const hourly = new CronTrigger({ cronExpression: "0 * * * *", timezone: "Europe/Berlin" });
    await hourly.start();
    clock.tick(3 * HOUR);
    assert.deepEqual(await drain(hourly), [
      "2026-10-25T02:00:00+02:00",
      "2026-10-25T02:00:00+01:00",
      "2026-10-25T03:00:00+01:00",
    ]);
    await hourly.stop();
  });
});

Deno.test("cron trigger runs a 6-field schedule with seconds first", async () => {
  await withClock("2026-01-01T00:00:00Z", async (clock) => {
    const trigger = new CronTrigger({ cronExpression: "*/15 * * * * *" });
    await trigger.start();
    clock.tick(60_000);
    assert.deepEqual(await drain(trigger), [
      "2026-01-01T00:00:15+00:00",
      "2026-01-01T00:00:30+00:00",
      "2026-01-01T00:00:45+00:00",
      "2026-01-01T00:01:00+00:00",
    ]);
    await trigger.stop();
  });
});

Deno.test("cron trigger does not fire a time again after the wall clock moves back", async () => {
  await withClock("2026-01-01T00:30:00Z", async (clock) => {
    const trigger = new CronTrigger({ cronExpression: "0 * * * *" });
    await trigger.start();
    clock.tick(30 * 60_000);
    assert.deepEqual(await drain(trigger), ["2026-01-01T01:00:00+00:00"]);
    clock.setSystemTime(Date.parse("2026-01-01T00:10:00Z"));
    clock.tick(55 * 60_000); // the wall clock passes 01:00 a second time
    assert.deepEqual(await drain(trigger), []);
    clock.tick(60 * 60_000); // to 02:05
    assert.deepEqual(await drain(trigger), ["2026-01-01T02:00:00+00:00"]);
    await trigger.stop();
  });
});

Deno.test("cron trigger fires once, not once per missed time, after the wall clock jumps forward", async () => {
  await withClock("2026-01-01T00:30:00Z", async (clock) => {
    const trigger = new CronTrigger({ cronExpression: "0 * * * *" });
    await trigger.start();
    clock.setSystemTime(Date.parse("2026-01-01T05:20:00Z"));
    clock.tick(CRON_MAX_SLEEP_MS);
    assert.deepEqual(await drain(trigger), ["2026-01-01T01:00:00+00:00"]);
    assert.equal(trigger.nextFireTime?.toISOString(), "2026-01-01T06:00:00.000Z");
    clock.tick(40 * 60_000);
    assert.deepEqual(await drain(trigger), ["2026-01-01T06:00:00+00:00"]);
    await trigger.stop();
  });
});

Deno.test("cron trigger drops firings when its queue is full, with a warning", async () => {
  await withClock("2026-01-01T00:00:00Z", async (clock) => {
    const sink = memorySink();
    const trigger = new CronTrigger({ cronExpression: "* * * * * *", logger: new Logger("t", { sink }) });
    assert.equal(trigger.queueCapacity, 10);
    await trigger.start();
    clock.tick(12_000);
    assert.equal(trigger.queueSize, 10);
    assert.equal(trigger.dropped, 2);
    assert.equal(sink.records.filter((r) => r.level === "warning").length, 2);
    await trigger.stop();
  });
});

Deno.test("cron trigger stop clears its timer and ends waitForNext", async () => {
  await withClock("2026-01-01T00:00:00Z", async (clock) => {
    const trigger = new CronTrigger({ cronExpression: "0 * * * *" });
    await trigger.start();
    assert.equal(clock.countTimers(), 1);
    const waiting = trigger.waitForNext();
    await trigger.stop();
    assert.equal(clock.countTimers(), 0);
    assert.equal(trigger.nextFireTime, null);
    await assert.rejects(waiting, TriggerCancelledError);
    clock.tick(2 * HOUR);
    assert.equal(trigger.queueSize, 1); // only the stop sentinel
  });
});

Deno.test("cron trigger on the real clock leaves no timer behind after stop", async () => {
  const trigger = new CronTrigger({ cronExpression: "0 0 1 1 *", timezone: "Europe/Paris" });
  await trigger.start();
  assert.ok(trigger.nextFireTime !== null && trigger.nextFireTime.getTime() > Date.now());
  await trigger.stop();
  assert.equal(trigger.nextFireTime, null);
});

Deno.test("cron trigger default id is cron- and 8 hex of the expression and zone", () => {
  const utc = new CronTrigger({ cronExpression: "0 9 * * *" });
  const paris = new CronTrigger({ cronExpression: "0 9 * * *", timezone: "Europe/Paris" });
  assert.match(utc.triggerId, /^cron-[0-9a-f]{8}$/);
  assert.equal(utc.triggerId, new CronTrigger({ cronExpression: "0 9 * * *", timezone: null }).triggerId);
  assert.notEqual(utc.triggerId, paris.triggerId);
  assert.equal(new CronTrigger({ cronExpression: "0 9 * * *", triggerId: "x" }).triggerId, "x");
});

Deno.test("cron trigger refuses a bad expression or time zone", () => {
  for (const bad of ["", "* * * *", "* * * * * * *", "61 * * * *", "nonsense"]) {
    assert.throws(() => new CronTrigger({ cronExpression: bad }), RangeError, bad);
  }
  assert.throws(() => new CronTrigger({ cronExpression: "0 9 * * *", timezone: "Mars/Base" }), RangeError);
});
