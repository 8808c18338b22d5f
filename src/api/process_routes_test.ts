import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { AgentRuntime, type ProcessPartFactory, type ProcessState } from "../runtime/mod.ts";
import { FIXED_MESSAGES } from "./errors.ts";
import { deploy, testApi } from "../../tests/_api_harness.ts";

Deno.test("GET /processes lists {name, state, process_id} in deploy order with total", async () => {
  await using api = await testApi();
  assert.deepEqual((await api.call("GET", "/api/v1/processes")).body, { processes: [], total: 0 });
  const a = await deploy(api, "a");
  const b = await deploy(api, "b", {}, { start: true });
  const answer = await api.call("GET", "/api/v1/processes");
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, {
    processes: [
      { name: "a", state: "created", process_id: a.body.process_id },
      { name: "b", state: "running", process_id: b.body.process_id },
    ],
    total: 2,
  });
});

Deno.test("GET /processes/{name} and /metrics answer the same status body", async () => {
  await using api = await testApi();
  await deploy(api, "idle");
  const status = await api.call("GET", "/api/v1/processes/idle");
  const metrics = await api.call("GET", "/api/v1/processes/idle/metrics");
  assert.equal(status.status, 200);
  assert.equal(metrics.status, 200);
  assert.deepEqual(metrics.body, status.body);
  assert.equal(status.body.name, "idle");
  assert.equal(status.body.state, "created");
  assert.equal(typeof status.body.counters, "object");
});

Deno.test("the status and metrics of a running process are identical at the same instant", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: Date.UTC(2026, 0, 2, 3, 4, 5) });
  try {
    await using api = await testApi();
    await deploy(api, "busy", { journal: { backend: "memory" } }, { start: true });
    clock.tick(1500);
    const status = await api.call("GET", "/api/v1/processes/busy");
    const metrics = await api.call("GET", "/api/v1/processes/busy/metrics");
    assert.equal(status.body.state, "running");
    assert.deepEqual(metrics.body, status.body);
    assert.equal(status.body.counters.starts, 1);
  } finally {
    clock.uninstall();
  }
});

Deno.test("every process route answers 404 PROCESS_NOT_FOUND for an unknown name", async () => {
  await using api = await testApi();
  const routes: Array<[string, string]> = [
    ["GET", ""],
    ["GET", "/metrics"],
    ["DELETE", ""],
    ["POST", "/start"],
    ["POST", "/stop"],
    ["POST", "/restart"],
    ["POST", "/suspend"],
    ["POST", "/resume"],
    ["GET", "/journal"],
  ];
  for (const [method, suffix] of routes) {
    for (const name of ["ghost", "9-not-a-valid-name"]) {
      const answer = await api.call(method, `/api/v1/processes/${name}${suffix}`);
      assert.equal(answer.status, 404, `${method} ${name}${suffix}`);
      assert.equal(answer.body.error.code, "PROCESS_NOT_FOUND", `${method} ${name}${suffix}`);
    }
  }
});

Deno.test("DELETE answers 204 with no body, stops the process, and the name is then 404", async () => {
  await using api = await testApi();
  await deploy(api, "a", {}, { start: true });
  const process = api.runtime.get("a");
  const removed = await api.call("DELETE", "/api/v1/processes/a");
  assert.equal(removed.status, 204);
  assert.equal(removed.text, "");
  assert.equal(process?.state, "stopped");
  assert.equal((await api.call("GET", "/api/v1/processes/a")).status, 404);
  const again = await api.call("DELETE", "/api/v1/processes/a");
  assert.equal(again.status, 404);
  assert.equal(again.body.error.code, "PROCESS_NOT_FOUND");
  assert.equal((await api.call("GET", "/api/v1/processes")).body.total, 0);
});

Deno.test("start, stop and restart answer {name, state}", async () => {
  await using api = await testApi();
  await deploy(api, "a");
  const expect = async (operation: string, state: ProcessState) => {
    const answer = await api.call("POST", `/api/v1/processes/a/${operation}`);
    assert.equal(answer.status, 200, `${operation}: ${answer.text}`);
    assert.deepEqual(answer.body, { name: "a", state });
    assert.equal(api.runtime.get("a")?.state, state);
  };
  await expect("start", "running");
  await expect("stop", "stopped");
  await expect("restart", "running");
  await expect("restart", "running");
  const status = await api.call("GET", "/api/v1/processes/a");
  assert.equal(status.body.counters.restarts, 2);
});

Deno.test("suspend answers {name, suspended: true, state}; resume answers {name, resumed: true, state}", async () => {
  await using api = await testApi();
  await deploy(api, "a", {}, { start: true });
  const suspended = await api.call("POST", "/api/v1/processes/a/suspend");
  assert.equal(suspended.status, 200);
  assert.deepEqual(suspended.body, { name: "a", suspended: true, state: "suspended" });
  const resumed = await api.call("POST", "/api/v1/processes/a/resume");
  assert.equal(resumed.status, 200);
  assert.deepEqual(resumed.body, { name: "a", resumed: true, state: "running" });
});

Deno.test("suspending a created process is 400 SUSPEND_FAILED with an error id; nothing changes", async () => {
  await using api = await testApi();
  await deploy(api, "a");
  const answer = await api.call("POST", "/api/v1/processes/a/suspend");
  assert.equal(answer.status, 400);
  assert.equal(answer.body.error.code, "SUSPEND_FAILED");
  assert.equal(answer.body.error.message, FIXED_MESSAGES.SUSPEND_FAILED);
  assert.match(answer.body.error.error_id, /^err_[0-9a-f]{16}$/);
  assert.equal(api.runtime.get("a")?.state, "created");
  const logged = api.records.find((r) =>
    r.fields.error_id === answer.body.error.error_id && r.message !== "request"
  );
  assert.equal(logged?.level, "warning");
});

Deno.test("resuming a running process is 400 RESUME_FAILED with an error id", async () => {
  await using api = await testApi();
  await deploy(api, "a", {}, { start: true });
  const answer = await api.call("POST", "/api/v1/processes/a/resume");
  assert.equal(answer.status, 400);
  assert.equal(answer.body.error.code, "RESUME_FAILED");
  assert.equal(answer.body.error.message, FIXED_MESSAGES.RESUME_FAILED);
  assert.match(answer.body.error.error_id, /^err_/);
  assert.equal(api.runtime.get("a")?.state, "running");
});

Deno.test("a restart or start queued behind a slow stop and then a DELETE is 404 PROCESS_NOT_FOUND; DELETE wins", async () => {
  let stopping = false;
  let release!: () => void;
  const stopped = new Promise<void>((resolve) => (release = resolve));
  const slowStop: ProcessPartFactory = () => ({
    name: "slow-stop",
    start: () => Promise.resolve(),
    stop: () => {
      stopping = true;
      return stopped;
    },
    status: () => ({}),
  });
  await using api = await testApi({
    makeRuntime: (options) => new AgentRuntime({ ...options, parts: [slowStop] }),
  });
  await deploy(api, "a", {}, { start: true });
  const stop = api.call("POST", "/api/v1/processes/a/stop");
  while (!stopping) await new Promise((resolve) => setTimeout(resolve, 1));
  const restart = api.call("POST", "/api/v1/processes/a/restart");
  const start = api.call("POST", "/api/v1/processes/a/start");
  await new Promise((resolve) => setTimeout(resolve, 10)); // both are queued behind the stop
  const removal = api.call("DELETE", "/api/v1/processes/a");
  release();
  assert.equal((await stop).status, 200);
  for (const answer of [await restart, await start]) {
    assert.equal(answer.status, 404, answer.text);
    assert.equal(answer.body.error.code, "PROCESS_NOT_FOUND");
  }
  assert.equal((await removal).status, 204);
  assert.equal((await api.call("GET", "/api/v1/processes/a")).status, 404);
});

Deno.test("a restart whose start fails is 500 RESTART_FAILED with a fixed message", async () => {
  await using api = await testApi({ allowedEnvVars: ["AGENTRY_TEST_UNSET"] });
  await deploy(api, "a", { secrets: { enabled: true, secrets: { K: "${AGENTRY_TEST_UNSET}" } } });
  const answer = await api.call("POST", "/api/v1/processes/a/restart");
  assert.equal(answer.status, 500);
  assert.equal(answer.body.error.code, "RESTART_FAILED");
  assert.equal(answer.body.error.message, FIXED_MESSAGES.RESTART_FAILED);
  assert.match(answer.body.error.error_id, /^err_/);
  assert.equal(api.runtime.get("a")?.state, "failed");
});

Deno.test({
  name: "an unexpected exception during suspend is 500 INTERNAL_ERROR, not a state refusal",
  fn: async () => {
    class FaultyRuntime extends AgentRuntime {
      override suspend(_name: string): Promise<ProcessState> {
        return Promise.reject(new TypeError("cannot read properties of undefined (reading 'pause')"));
      }
    }
    await using api = await testApi({ makeRuntime: (options) => new FaultyRuntime(options) });
    await deploy(api, "a", {}, { start: true });
    const answer = await api.call("POST", "/api/v1/processes/a/suspend");
    assert.equal(answer.status, 500);
    assert.equal(answer.body.error.code, "INTERNAL_ERROR");
    const logged = api.records.find((r) =>
      r.fields.error_id === answer.body.error.error_id && r.message !== "request"
    );
    assert.equal(logged?.level, "error");
  },
});
