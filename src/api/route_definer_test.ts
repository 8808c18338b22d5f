import assert from "node:assert/strict";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "./context.ts";
import { ApiError } from "./errors.ts";
import { MUTATING_METHODS, routeDefiner } from "./route_definer.ts";

/** An app answering ApiErrors with the envelope, and its route definer. */
function app() {
  const hono = new OpenAPIHono<ApiEnv>({ strict: true });
  hono.onError((error) => {
    if (error instanceof ApiError) return error.toResponse();
    return new Response(String(error), { status: 500 });
  });
  return { hono, route: routeDefiner(hono) };
}

async function json(response: Response | Promise<Response>) {
  const answer = await response;
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

Deno.test("mutating methods are POST, PUT, PATCH and DELETE", () => {
  assert.deepEqual([...MUTATING_METHODS].sort(), ["DELETE", "PATCH", "POST", "PUT"]);
});

Deno.test("a defined route routes, is recorded in the OpenAPI document, and sets route and params of mutating requests", async () => {
  const { hono, route } = app();
  route({
    method: "get",
    path: "/things/{id}",
    operationId: "getThing",
    responses: { 200: { description: "A thing" } },
  }, (c) => c.json({ route: c.get("route") ?? null, id: c.req.param("id") }));
  route({
    method: "delete",
    path: "/things/{id}",
    responses: { 200: { description: "Gone" } },
  }, (c) => c.json({ route: c.get("route"), params: c.get("params") }));
  const answer = await json(hono.request("/things/t-1"));
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { route: null, id: "t-1" });
  const removed = await json(hono.request("/things/t-1", { method: "DELETE" }));
  assert.deepEqual(removed.body, { route: "/things/{id}", params: { id: "t-1" } });
  const document = hono.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
  assert.deepEqual(Object.keys(document.paths ?? {}), ["/things/{id}"]);
  assert.equal(document.paths?.["/things/{id}"]?.get?.operationId, "getThing");
  assert.ok(document.paths?.["/things/{id}"]?.delete);
});

Deno.test("a mutating route without takesBody accepts no body or {} and refuses fields with 422 UNKNOWN_FIELD", async () => {
  const { hono, route } = app();
  let calls = 0;
  route({
    method: "post",
    path: "/things/{id}/poke",
    responses: { 200: { description: "Poked" } },
  }, (c) => {
    calls++;
    return c.json({ body: c.get("body") ?? null });
  });
  assert.deepEqual(await json(hono.request("/things/a/poke", { method: "POST" })), {
    status: 200,
    body: { body: null },
  });
  assert.equal((await json(hono.request("/things/a/poke", { method: "POST", body: "{}" }))).status, 200);
  const refused = await json(
    hono.request("/things/a/poke", { method: "POST", body: '{"hard":true,"twice":1}' }),
  );
  assert.equal(refused.status, 422);
  assert.equal(refused.body.error.code, "UNKNOWN_FIELD");
  assert.deepEqual(refused.body.error.details.map((d: { field: string }) => d.field), ["hard", "twice"]);
  const broken = await json(hono.request("/things/a/poke", { method: "POST", body: "[]" }));
  assert.equal(broken.status, 400);
  assert.equal(broken.body.error.code, "INVALID_JSON");
  assert.equal(calls, 2);
});

Deno.test("a route with takesBody hands the parsed body to its handler", async () => {
  const { hono, route } = app();
  route({
    method: "patch",
    path: "/things/{id}",
    takesBody: true,
    responses: { 200: { description: "Patched" } },
  }, (c) => c.json({ got: c.get("body") }));
  const answer = await json(hono.request("/things/a", { method: "PATCH", body: '{"size":3}' }));
  assert.deepEqual(answer, { status: 200, body: { got: { size: 3 } } });
});
