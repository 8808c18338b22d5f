import assert from "node:assert/strict";
import { AgentRuntime, type RuntimeStatus } from "../runtime/mod.ts";
import { FIXED_MESSAGES } from "./errors.ts";
import { deploy, testApi, within } from "../../tests/_api_harness.ts";

Deno.test("GET /api/v1/health answers {status: healthy, process_count} without the token", async () => {
  await using api = await testApi();
  await deploy(api, "a");
  const answer = await api.call("GET", "/api/v1/health", { token: null });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { status: "healthy", process_count: 1 });
  assert.equal((await api.call("GET", "/api/v1/health", { token: "wrong" })).status, 200);
});

Deno.test("GET /runtime/status answers {process_count, processes} with each process's status body", async () => {
  await using api = await testApi();
  await deploy(api, "alpha");
  await deploy(api, "beta", {}, { start: true });
  const answer = await api.call("GET", "/api/v1/runtime/status");
  assert.equal(answer.status, 200);
  assert.deepEqual(Object.keys(answer.body).sort(), ["process_count", "processes"]);
  assert.equal(answer.body.process_count, 2);
  assert.deepEqual(Object.keys(answer.body.processes).sort(), ["alpha", "beta"]);
  assert.equal(answer.body.processes.alpha.state, "created");
  assert.equal(answer.body.processes.beta.state, "running");
  const alpha = await api.call("GET", "/api/v1/processes/alpha");
  assert.deepEqual(answer.body.processes.alpha, alpha.body);
});

Deno.test("start-all starts every process and answers {status: started}; stop-all stops them", async () => {
  await using api = await testApi();
  await deploy(api, "a");
  await deploy(api, "b");
  const started = await api.call("POST", "/api/v1/runtime/start-all");
  assert.equal(started.status, 200);
  assert.deepEqual(started.body, { status: "started" });
  assert.deepEqual(api.runtime.list().map((p) => p.state), ["running", "running"]);
  const stopped = await api.call("POST", "/api/v1/runtime/stop-all");
  assert.equal(stopped.status, 200);
  assert.deepEqual(stopped.body, { status: "stopped" });
  assert.deepEqual(api.runtime.list().map((p) => p.state), ["stopped", "stopped"]);
});

Deno.test("start-all still answers started when one process fails, which is left failed", async () => {
  await using api = await testApi({ allowedEnvVars: ["AGENTRY_TEST_UNSET"] });
  await deploy(api, "good");
  await deploy(api, "bad", { secrets: { enabled: true, secrets: { KEY: "${AGENTRY_TEST_UNSET}" } } });
  const answer = await api.call("POST", "/api/v1/runtime/start-all");
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { status: "started" });
  assert.equal(api.runtime.get("good")?.state, "running");
  assert.equal(api.runtime.get("bad")?.state, "failed");
});

Deno.test("POST /runtime/shutdown answers 202 {status: shutting_down}, then calls on_shutdown", async () => {
  let calls = 0;
  let called!: () => void;
  const done = new Promise<void>((resolve) => called = resolve);
  await using api = await testApi({
    onShutdown: () => {
      calls++;
      called();
    },
  });
  const answer = await api.call("POST", "/api/v1/runtime/shutdown");
  assert.equal(answer.status, 202);
  assert.deepEqual(answer.body, { status: "shutting_down" });
  assert.equal(calls, 0, "the callback runs after the answer");
  await within(done, 2000, "the shutdown callback");
  assert.equal(calls, 1);
});

Deno.test("without on_shutdown, POST /runtime/shutdown is 404 NOT_FOUND", async () => {
  await using api = await testApi();
  const answer = await api.call("POST", "/api/v1/runtime/shutdown");
  assert.equal(answer.status, 404);
  assert.equal(answer.body.error.code, "NOT_FOUND");
});

Deno.test("unknown paths answer 404 NOT_FOUND with the envelope", async () => {
  await using api = await testApi();
  for (const path of ["/api/v1/nope", "/api/v2/health", "/", "/api/v1/processes/a/b/c", "/api/v1/runtime"]) {
    const answer = await api.call("GET", path);
    assert.equal(answer.status, 404, path);
    assert.deepEqual(Object.keys(answer.body.error).sort(), ["code", "message"]);
    assert.equal(answer.body.error.code, "NOT_FOUND", path);
  }
});

Deno.test("a known path with another method is 405 METHOD_NOT_ALLOWED with an Allow header", async () => {
  await using api = await testApi({ onShutdown: () => {} });
  const cases: Array<[string, string, string[]]> = [
    ["PUT", "/api/v1/processes", ["GET", "POST"]],
    ["PATCH", "/api/v1/processes/a", ["DELETE", "GET"]],
    ["GET", "/api/v1/processes/a/start", ["POST"]],
    ["DELETE", "/api/v1/health", ["GET"]],
    ["GET", "/api/v1/runtime/shutdown", ["POST"]],
  ];
  for (const [method, path, expected] of cases) {
    const answer = await api.call(method, path);
    assert.equal(answer.status, 405, `${method} ${path}`);
    assert.equal(answer.body.error.code, "METHOD_NOT_ALLOWED");
    const allow = (answer.headers.get("allow") ?? "").split(",").map((m) => m.trim()).filter((m) =>
      m !== "HEAD"
    );
    assert.deepEqual(allow.sort(), expected, `${method} ${path}`);
  }
  assert.equal(api.runtime.size, 0);
});

Deno.test("an unexpected exception is 500 INTERNAL_ERROR: fixed message, error id, no exception text or stack", async () => {
  class BrokenRuntime extends AgentRuntime {
    override status(): RuntimeStatus {
      throw new Error("database password hunter2 leaked at /srv/agentry/state.db");
    }
  }
  await using api = await testApi({ makeRuntime: (options) => new BrokenRuntime(options) });
  const answer = await api.call("GET", "/api/v1/runtime/status");
  assert.equal(answer.status, 500);
  assert.equal(answer.body.error.code, "INTERNAL_ERROR");
  assert.equal(answer.body.error.message, FIXED_MESSAGES.INTERNAL_ERROR);
  assert.match(answer.body.error.error_id, /^err_[0-9a-f]{16}$/);
  for (const leak of ["hunter2", "/srv/agentry", "Error:", "    at ", "stack"]) {
    assert.ok(!answer.text.includes(leak), `the answer contains ${JSON.stringify(leak)}`);
  }
  const logged = api.records.find((r) =>
    r.fields.error_id === answer.body.error.error_id && r.level === "error"
  );
  assert.ok(logged, "the error id links to an ERROR log record");
  assert.match(String(logged.fields.cause), /hunter2/);
});

Deno.test("405 lists the path's methods in registration order, HEAD after GET; a {param} is one non-empty segment and a dot is literal", async () => {
  await using api = await testApi({ onShutdown: () => {} });
  const cases: Array<[string, string, string | null]> = [
    ["PUT", "/api/v1/processes", "GET, HEAD, POST"],
    ["OPTIONS", "/api/v1/processes/a", "GET, HEAD, DELETE"],
    ["HEAD", "/api/v1/processes/a/start", "POST"],
    ["GET", "/api/v1/processes/a/triggers/t-1", "DELETE"],
    ["DELETE", "/api/v1/processes/a/triggers", "GET, HEAD, POST"],
    ["POST", "/api/v1/openapi.json", "GET, HEAD"],
    ["GET", "/api/v1/processes//start", null],
    ["POST", "/api/v1/processes/a/b/start", null],
    ["POST", "/api/v1/processes/a/start/", null],
    ["GET", "/api/v1/openapiXjson", null],
    ["DELETE", "/api/v1/health/", null],
  ];
  for (const [method, path, allow] of cases) {
    const answer = await api.call(method, path);
    const what = `${method} ${path}`;
    const body = allow === null
      ? '{"error":{"code":"NOT_FOUND","message":"No such route."}}'
      : `{"error":{"code":"METHOD_NOT_ALLOWED","message":"This route accepts ${allow}."}}`;
    assert.equal(answer.status, allow === null ? 404 : 405, what);
    assert.equal(answer.headers.get("allow"), allow, what);
    assert.equal(answer.headers.get("content-type"), "application/json", what);
    assert.equal(answer.text, method === "HEAD" ? "" : body, what);
  }
});
