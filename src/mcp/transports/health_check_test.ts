import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { HealthCheck } from "./health_check.ts";

Deno.test("readiness is ready when every required check passes, even if an optional one fails", async () => {
  const health = new HealthCheck()
    .addCheck("db", () => true)
    .addCheck("cache", () => false, { requiredForReady: false });
  assert.deepEqual(await health.readiness(), {
    status: "ready",
    checks: { db: { healthy: true }, cache: { healthy: false } },
  });
});

Deno.test("a required check that throws makes the server not ready, with the error only on request", async () => {
  const health = new HealthCheck()
    .addCheck("db", () => Promise.reject(new Error("connection refused to 10.0.0.5")))
    .addCheck("queue", () => true);
  const plain = await health.readiness();
  assert.equal(plain.status, "not_ready");
  assert.deepEqual(plain.checks.db, { healthy: false });
  assert.doesNotMatch(JSON.stringify(plain), /refused/);
  const detailed = await health.readiness({ includeErrors: true });
  assert.deepEqual(detailed.checks.db, { healthy: false, error: "connection refused to 10.0.0.5" });
});

Deno.test("a check returning anything but true counts as unhealthy", async () => {
  const health = new HealthCheck().addCheck("odd", () => "yes" as unknown as boolean);
  assert.equal((await health.readiness()).status, "not_ready");
});

Deno.test("liveness reports the uptime in seconds", () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const health = new HealthCheck();
    clock.tick(12_345);
    assert.deepEqual(health.liveness(), { status: "alive", uptime_seconds: 12.35 });
  } finally {
    clock.uninstall();
  }
});

Deno.test("addCheck refuses duplicate names and unknown options", () => {
  const health = new HealthCheck().addCheck("db", () => true);
  assert.throws(() => health.addCheck("db", () => true), /already registered/);
  assert.throws(
    () => health.addCheck("x", () => true, { required: true } as never),
    /unknown option 'required'/,
  );
  assert.deepEqual(health.names, ["db"]);
});
