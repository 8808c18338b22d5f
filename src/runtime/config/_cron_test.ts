import assert from "node:assert/strict";
import { cronProblem, isTimeZone } from "./_cron.ts";

Deno.test("cron expressions of 5 or 6 fields and nicknames are accepted", () => {
  assert.equal(cronProblem("*/5 * * * *"), undefined);
  assert.equal(cronProblem("0 30 9 * * MON-FRI"), undefined);
  assert.equal(cronProblem("@daily"), undefined);
});

Deno.test("cron expressions with the wrong field count or bad values are refused", () => {
  assert.match(cronProblem("* * * *") ?? "", /5 fields/);
  assert.match(cronProblem("* * * * * * *") ?? "", /5 fields/);
  assert.match(cronProblem("61 * * * *") ?? "", /cron expression/);
  assert.match(cronProblem("not a cron") ?? "", /cron expression/);
  assert.match(cronProblem("@sometimes") ?? "", /cron expression/);
});

Deno.test("a cron expression that never fires is refused", () => {
  assert.match(cronProblem("0 0 30 2 *") ?? "", /at least one future time/);
});

Deno.test("isTimeZone knows IANA names and refuses others", () => {
  assert.equal(isTimeZone("Europe/Paris"), true);
  assert.equal(isTimeZone("UTC"), true);
  assert.equal(isTimeZone("Mars/Olympus_Mons"), false);
  assert.equal(isTimeZone(""), false);
});
