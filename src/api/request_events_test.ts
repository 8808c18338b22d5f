import assert from "node:assert/strict";
import type { LogRecord } from "../log.ts";
import { CLIENT, deploy, testApi } from "../../tests/_api_harness.ts";

const requestLines = (records: LogRecord[]) => records.filter((r) => r.message === "request");

Deno.test("each mutating request is logged at INFO on the API logger with method, route, params, status, client", async () => {
  await using api = await testApi();
  await deploy(api, "a");
  await api.call("POST", "/api/v1/processes/a/start");
  await api.call("DELETE", "/api/v1/processes/a");
  const lines = requestLines(api.records);
  assert.deepEqual(lines.map((r) => r.level), ["info", "info", "info"]);
  assert.ok(lines.every((r) => r.logger.endsWith(".api")), lines.map((r) => r.logger).join());
  const pick = (r: LogRecord) => ({
    method: r.fields.method,
    route: r.fields.route,
    params: r.fields.params,
    status: r.fields.status,
    client: r.fields.client,
  });
  assert.deepEqual(lines.map(pick), [
    { method: "POST", route: "/api/v1/processes", params: {}, status: 201, client: CLIENT },
    {
      method: "POST",
      route: "/api/v1/processes/{name}/start",
      params: { name: "a" },
      status: 200,
      client: CLIENT,
    },
    {
      method: "DELETE",
      route: "/api/v1/processes/{name}",
      params: { name: "a" },
      status: 204,
      client: CLIENT,
    },
  ]);
});

Deno.test("reads are not logged as request lines", async () => {
  await using api = await testApi();
  await api.call("GET", "/api/v1/processes");
  await api.call("GET", "/api/v1/runtime/status");
  await api.call("GET", "/api/v1/health");
  assert.deepEqual(requestLines(api.records), []);
});

Deno.test("failed mutating requests are logged with their status and the answer's error id", async () => {
  await using api = await testApi();
  await deploy(api, "a");
  const answer = await api.call("POST", "/api/v1/processes/a/suspend");
  const line = requestLines(api.records).at(-1);
  assert.equal(line?.level, "info");
  assert.equal(line?.fields.status, 400);
  assert.equal(line?.fields.error_id, answer.body.error.error_id);
});

Deno.test("request bodies are never logged, whatever the outcome", async () => {
  const marker = "body-marker-9f27c1e4";
  await using api = await testApi();
  const bodies: Array<Record<string, unknown>> = [
    {
      name: "ok",
      config: {
        instructions: `Remember ${marker}.`,
        servers: { docs: { url: "https://mcp.example/mcp", headers: { "X-Marker": marker } } },
        context: { initial_state: { note: marker } },
      },
      start: true,
    },
    { name: "bad", config: { budget: { max_runs_per_day: marker } } },
    { name: "cmd", config: { servers: { fs: { command: `/opt/${marker}` } } } },
    { name: "path", config: { journal: { backend: "file", path: `/var/${marker}` } } },
    { name: "extra", config: {}, note: marker },
  ];
  for (const body of bodies) await api.call("POST", "/api/v1/processes", { json: body });
  await api.call("POST", "/api/v1/processes/ok/stop", { json: { reason: marker } });
  assert.ok(requestLines(api.records).length >= bodies.length);
  const leaked = api.records.filter((r) => JSON.stringify(r).includes(marker));
  assert.deepEqual(leaked, []);
});

Deno.test("refused requests (401, 403 cross-origin, 421) are logged as warnings and not as request lines", async () => {
  await using api = await testApi();
  assert.equal((await api.call("POST", "/api/v1/runtime/stop-all", { token: null })).status, 401);
  assert.equal(
    (await api.call("POST", "/api/v1/runtime/stop-all", { headers: { origin: "https://evil.example" } }))
      .status,
    403,
  );
  assert.equal(
    (await api.call("POST", "/api/v1/runtime/stop-all", { headers: { host: "evil.example" } })).status,
    421,
  );
  const warnings = api.records.filter((r) => r.level === "warning");
  assert.deepEqual(warnings.map((r) => r.fields.status), [401, 403, 421]);
  for (const warning of warnings) {
    assert.equal(warning.fields.method, "POST");
    assert.equal(warning.fields.client, CLIENT);
  }
  assert.deepEqual(requestLines(api.records), []);
});

Deno.test("refused command deploys are logged as warnings naming where", async () => {
  await using api = await testApi();
  await deploy(api, "a", { hooks: [{ event: "run_start", command: "/bin/true" }] });
  const warning = api.records.find((r) => r.level === "warning" && r.fields.code === "COMMANDS_NOT_ALLOWED");
  assert.ok(warning, JSON.stringify(api.records));
  assert.equal(warning.fields.process, "a");
  assert.ok(Array.isArray(warning.fields.where) && warning.fields.where.length === 1);
});

Deno.test("error ids link to an ERROR log line for 5xx answers and a WARNING line otherwise", async () => {
  await using api = await testApi({ allowedEnvVars: ["AGENTRY_TEST_UNSET"] });
  const failing = { secrets: { enabled: true, secrets: { K: "${AGENTRY_TEST_UNSET}" } } };
  const start = await deploy(api, "a", failing, { start: true });
  await deploy(api, "b");
  const suspend = await api.call("POST", "/api/v1/processes/b/suspend");
  const levelOf = (errorId: string) =>
    api.records.filter((r) => r.fields.error_id === errorId && r.message !== "request").map((r) => r.level);
  assert.equal(start.status, 500);
  assert.deepEqual(levelOf(start.body.error.error_id), ["error"]);
  assert.equal(suspend.status, 400);
  assert.deepEqual(levelOf(suspend.body.error.error_id), ["warning"]);
});
