import assert from "node:assert/strict";
import { test } from "node:test";
import { envOf } from "../_test_parse.ts";
import { petPlan } from "./_test_eval.ts";
import { createEvalFetch } from "./eval_fetch.ts";

const BASE = "https://api.example.com/v1";

function liveRecorder() {
  const seen: string[] = [];
  const fetch = (input: RequestInfo | URL) => {
    const request = input as Request;
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
    return Promise.resolve(Response.json({ live: true }));
  };
  return { seen, fetch: fetch as typeof globalThis.fetch };
}

test("a request only read-class routes match goes live when live reads are on", async () => {
  const { plan, operations } = await petPlan();
  const live = liveRecorder();
  const upstream = createEvalFetch(plan, { env: envOf(), fetch: live.fetch, liveReads: true, operations });
  const response = await upstream.fetch(new Request(`${BASE}/pets/42?verbose=true`));
  assert.deepEqual(await response.json(), { live: true });
  assert.deepEqual(live.seen, ["GET /v1/pets/42"]);
  assert.deepEqual([upstream.live, upstream.mocked], [1, 0]);
});

test("with live reads off, reads are mocked from the success schema", async () => {
  const { plan, operations } = await petPlan();
  const live = liveRecorder();
  const upstream = createEvalFetch(plan, { env: envOf(), fetch: live.fetch, liveReads: false, operations });
  const response = await upstream.fetch(new Request(`${BASE}/pets/42`));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { id: 7, name: "Rex" });
  assert.deepEqual(live.seen, []);
  assert.equal(upstream.mocked, 1);
});

test("writes and deletes are always mocked; without a success schema the marker answers", async () => {
  const { plan, operations } = await petPlan();
  const live = liveRecorder();
  const upstream = createEvalFetch(plan, { env: envOf(), fetch: live.fetch, liveReads: true, operations });
  const created = await upstream.fetch(
    new Request(`${BASE}/pets`, { method: "POST", body: '{"name":"Rex"}' }),
  );
  assert.deepEqual(await created.json(), { id: 7, name: "Rex" });
  const deleted = await upstream.fetch(new Request(`${BASE}/pets/42/`, { method: "DELETE" }));
  assert.deepEqual(await deleted.json(), { ok: true, mock: "deletePet" });
  assert.deepEqual(live.seen, []);
});

test("the most specific route answers: /pets/mine before /pets/{petId}", async () => {
  const { plan } = await petPlan();
  const upstream = createEvalFetch(plan, { env: envOf(), fetch: liveRecorder().fetch, liveReads: false });
  const mine = await upstream.fetch(new Request(`${BASE}/pets/mine`));
  assert.deepEqual(await mine.json(), { ok: true, mock: "listMyPets" });
  const one = await upstream.fetch(new Request(`${BASE}/pets/mine2`));
  assert.deepEqual(await one.json(), { ok: true, mock: "getPet" });
});

test("a request no route matches is answered 502 EVAL_NO_MOCK and recorded once", async () => {
  const { plan } = await petPlan();
  const live = liveRecorder();
  const upstream = createEvalFetch(plan, { env: envOf(), fetch: live.fetch, liveReads: true });
  for (
    const url of [
      `${BASE}/owners/1`,
      `${BASE}/owners/1`,
      `${BASE}/pets/1/toys`,
      "https://other.example/v1/pets",
    ]
  ) {
    const response = await upstream.fetch(new Request(url));
    assert.equal(response.status, 502);
    const body = await response.json();
    assert.equal(body.error.code, "EVAL_NO_MOCK");
  }
  const put = await upstream.fetch(new Request(`${BASE}/pets/1`, { method: "PUT", body: "{}" }));
  assert.equal(put.status, 502);
  assert.deepEqual(upstream.unmatched, [
    "GET /v1/owners/1",
    "GET /v1/pets/1/toys",
    "GET /v1/pets",
    "PUT /v1/pets/1",
  ]);
  assert.deepEqual(live.seen, []);
});

test("MCPCAST_BASE_URL moves the routes the same way it moves the server", async () => {
  const { plan } = await petPlan();
  const env = envOf({ MCPCAST_BASE_URL: "https://staging.example.com/api/" });
  const upstream = createEvalFetch(plan, { env, fetch: liveRecorder().fetch, liveReads: false });
  assert.equal((await upstream.fetch(new Request("https://staging.example.com/api/pets"))).status, 200);
  assert.equal((await upstream.fetch(new Request(`${BASE}/pets`))).status, 502);
});

test("a request that also matches a route of a non-read tool is mocked, whatever its method", async () => {
  const { plan } = await petPlan();
  const mine = plan.tools.find((tool) => tool.name === "list_my_pets")!;
  mine.risk = "write"; // raised by curation: reads with side effects
  const live = liveRecorder();
  const upstream = createEvalFetch(plan, { env: envOf(), fetch: live.fetch, liveReads: true });
  // GET /pets/mine matches list_my_pets (write) and get_pet (read): mocked by the most specific.
  assert.deepEqual(await (await upstream.fetch(new Request(`${BASE}/pets/mine`))).json(), {
    ok: true,
    mock: "listMyPets",
  });
  await upstream.fetch(new Request(`${BASE}/pets/9`));
  assert.deepEqual(live.seen, ["GET /v1/pets/9"]);
});
