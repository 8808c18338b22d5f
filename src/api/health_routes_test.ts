import assert from "node:assert/strict";
import { deploy, testApi } from "../../tests/_api_harness.ts";

const BASE = "/api/v1/processes/watched";

Deno.test("GET anomalies lists them with the declared schema; DELETE clears history and cooldowns", async () => {
  await using api = await testApi();
  await deploy(api, "watched", { health: { enabled: true, stuck_threshold: 2, cooldown: 3600 } });
  const health = api.runtime.get("watched")!.health;
  const stuck = (runId: string) => {
    const watch = health.watch(runId);
    watch?.toolCall("lookup", { id: 1 });
    watch?.toolCall("lookup", { id: 1 });
    watch?.end({ status: "succeeded", reply: "a reply long enough" });
  };
  assert.deepEqual((await api.call("GET", `${BASE}/health/anomalies`)).body, []);
  stuck("run-1");
  stuck("run-2"); // within the cooldown
  const listed = await api.call("GET", `${BASE}/health/anomalies`);
  assert.equal(listed.status, 200);
  assert.equal(listed.body.length, 1);
  assert.deepEqual(
    { ...listed.body[0], timestamp: "t" },
    {
      type: "stuck",
      description: "the tool lookup was called 2 times in a row with the same arguments",
      timestamp: "t",
      run_id: "run-1",
      details: { tool: "lookup", repeats: 2 },
    },
  );
  const status = await api.call("GET", BASE);
  assert.deepEqual(status.body.health, { enabled: true, anomalies: 1, last_anomaly: listed.body[0] });
  const cleared = await api.call("DELETE", `${BASE}/health/anomalies`);
  assert.deepEqual(cleared.body, { name: "watched", anomalies_cleared: 1 });
  stuck("run-3");
  assert.equal(
    (await api.call("GET", `${BASE}/health/anomalies`)).body.length,
    1,
    "the cooldown was cleared",
  );
});

Deno.test("both anomaly routes answer 400 HEALTH_DISABLED without health, 404 for an unknown process", async () => {
  await using api = await testApi();
  await deploy(api, "watched", {});
  for (const method of ["GET", "DELETE"]) {
    const answer = await api.call(method, `${BASE}/health/anomalies`);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, "HEALTH_DISABLED");
    assert.equal((await api.call(method, "/api/v1/processes/nope/health/anomalies")).status, 404);
  }
  assert.deepEqual((await api.call("GET", BASE)).body.health, {
    enabled: false,
    anomalies: 0,
    last_anomaly: null,
  });
  // The monitor reads the process's current config: health switched on live (as PATCH health does) applies at once.
  const process = api.runtime.get("watched")!;
  process.updateConfig({ ...process.config, health: { ...process.config.health, enabled: true } });
  assert.deepEqual((await api.call("GET", `${BASE}/health/anomalies`)).body, []);
  assert.equal((await api.call("GET", BASE)).body.health.enabled, true);
});
