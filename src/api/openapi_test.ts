import assert from "node:assert/strict";
import { OPENAPI_PATH } from "./control_api.ts";
import { testApi, TOKEN } from "../../tests/_api_harness.ts";
import { answer, checkAnswer } from "./_test_answers.ts";

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** Every route the API serves (spec 000's, and our run routes), plus the document itself. */
const EXPECTED: Record<string, string[]> = {
  "/api/v1/events": ["get"], // runtime events (issue 20)
  "/api/v1/health": ["get"],
  "/api/v1/runtime/status": ["get"],
  "/api/v1/runtime/start-all": ["post"],
  "/api/v1/runtime/stop-all": ["post"],
  "/api/v1/runtime/shutdown": ["post"],
  "/api/v1/processes": ["get", "post"],
  "/api/v1/processes/{name}": ["delete", "get"],
  "/api/v1/processes/{name}/metrics": ["get"],
  "/api/v1/processes/{name}/start": ["post"],
  "/api/v1/processes/{name}/stop": ["post"],
  "/api/v1/processes/{name}/restart": ["post"],
  "/api/v1/processes/{name}/suspend": ["post"],
  "/api/v1/processes/{name}/resume": ["post"],
  "/api/v1/processes/{name}/journal": ["get"],
  "/api/v1/processes/{name}/triggers": ["get", "post"],
  "/api/v1/processes/{name}/triggers/{trigger_id}": ["delete"],
  "/api/v1/processes/{name}/instructions": ["patch"],
  "/api/v1/processes/{name}/budget": ["patch"], // live patches (issue 13)
  "/api/v1/processes/{name}/health": ["patch"],
  "/api/v1/processes/{name}/runs": ["get"],
  "/api/v1/processes/{name}/runs/events": ["get"],
  "/api/v1/processes/{name}/runs/{run_id}": ["get"],
  "/api/v1/processes/{name}/context": ["get", "patch"],
  "/api/v1/processes/{name}/secrets": ["delete", "get"],
  "/api/v1/processes/{name}/secrets/{secret_name}": ["patch"],
  "/api/v1/processes/{name}/rollback": ["post"],
  // Inbox (issue 12).
  "/api/v1/processes/{name}/messages": ["post"],
  "/api/v1/processes/{name}/ask": ["post"],
  "/api/v1/processes/{name}/inbox": ["delete", "get"],
  // Rewind (issue 13).
  "/api/v1/processes/{name}/rewind/plan": ["get"],
  "/api/v1/processes/{name}/rewind": ["post"],
  // Health (issue 13).
  "/api/v1/processes/{name}/health/anomalies": ["delete", "get"],
  // Mission (issue 13).
  "/api/v1/processes/{name}/mission": ["get", "patch"],
  "/api/v1/processes/{name}/mission/fail": ["post"],
  "/api/v1/processes/{name}/mission/pause": ["post"],
  "/api/v1/processes/{name}/mission/resume": ["post"],
  // Dead letters (event ledger).
  "/api/v1/processes/{name}/dead-letters": ["delete", "get"],
  "/api/v1/processes/{name}/dead-letters/redeliver": ["post"],
  "/api/v1/openapi.json": ["get"],
};

const methodsOf = (item: Record<string, unknown>) =>
  Object.keys(item).filter((k) => HTTP_METHODS.has(k)).sort();

Deno.test("the OpenAPI document needs the token", async () => {
  await using api = await testApi();
  const answer = await api.call("GET", OPENAPI_PATH, { token: null });
  assert.equal(answer.status, 401);
  assert.equal(answer.body.error.code, "UNAUTHORIZED");
});

Deno.test("GET /api/v1/openapi.json is an OpenAPI 3.1 document listing every route with its methods", async () => {
  await using api = await testApi({ onShutdown: () => {} });
  const answer = await api.call("GET", OPENAPI_PATH);
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get("content-type") ?? "", /application\/json/);
  const document = answer.body;
  assert.match(document.openapi, /^3\.1\.\d+$/);
  assert.equal(typeof document.info.title, "string");
  assert.equal(typeof document.info.version, "string");
  const actual = Object.fromEntries(
    Object.entries(document.paths as Record<string, Record<string, unknown>>).map(([path, item]) => [
      path,
      methodsOf(item),
    ]),
  );
  assert.deepEqual(actual, EXPECTED);
  const operationIds = Object.values(
    document.paths as Record<string, Record<string, { operationId?: string }>>,
  )
    .flatMap((item) => Object.values(item).map((op) => op.operationId));
  assert.equal(new Set(operationIds).size, operationIds.length, "operation ids are unique");
});

Deno.test("the document asks for the bearer token everywhere but on health", async () => {
  await using api = await testApi();
  const document = (await api.call("GET", OPENAPI_PATH)).body;
  assert.deepEqual(document.security, [{ bearerAuth: [] }]);
  assert.deepEqual(document.components.securitySchemes.bearerAuth, { type: "http", scheme: "bearer" });
  assert.deepEqual(document.paths["/api/v1/health"].get.security, []);
  assert.equal(document.paths["/api/v1/processes"].get.security, undefined);
});

Deno.test("without on_shutdown the document has no shutdown route", async () => {
  await using api = await testApi();
  const document = (await api.call("GET", OPENAPI_PATH)).body;
  assert.equal(document.paths["/api/v1/runtime/shutdown"], undefined);
  assert.deepEqual(methodsOf(document.paths["/api/v1/processes"]), ["get", "post"]);
});

Deno.test("answers are checked against the schema their route declares for the status", async () => {
  await using api = await testApi();
  const listed = await answer(api.app, "GET", "/api/v1/processes", {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.deepEqual(listed.body, { processes: [], total: 0 });
  const list = { method: "GET", path: "/api/v1/processes" };
  assert.throws(
    () => checkAnswer(api.app, list, { status: 200, body: { processes: [], total: 0, extra: 1 } }),
    {
      message: /fields its declared schema does not/,
    },
  );
  assert.throws(() => checkAnswer(api.app, list, { status: 200, body: { processes: [] } }), {
    message: /does not match/,
  });
  assert.throws(
    () => checkAnswer(api.app, list, { status: 409, body: { error: { code: "X", message: "m" } } }),
    {
      message: /declares no 409 answer/,
    },
  );
  const remove = { method: "DELETE", path: "/api/v1/processes/a" };
  assert.throws(() => checkAnswer(api.app, remove, { status: 204, body: {} }), { message: /empty answer/ });
  assert.throws(() => checkAnswer(api.app, { method: "GET", path: "/nope" }, { status: 404, body: {} }), {
    message: /does not match/,
  });
});
