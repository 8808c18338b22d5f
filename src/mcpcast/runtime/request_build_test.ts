import assert from "node:assert/strict";
import { ToolError } from "../../mcp/mod.ts";
import type { RoutePlan } from "../plan/types.ts";
import { buildRequestParts, encodeSegment, flatten } from "./request_build.ts";
import { petPlan } from "../_test_plans.ts";
import { toolOf } from "./_test_runtime.ts";
import { admitsNull, callValues, routeAlternatives, selectRoute } from "./route_select.ts";

function route(init: Partial<RoutePlan>): RoutePlan {
  return { operation_id: "op", method: "GET", path: "/", params: {}, body_encoding: "json", ...init };
}

function values(entries: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(entries));
}

Deno.test("path segments are percent-encoded with no safe characters and refused when not one segment", () => {
  assert.equal(encodeSegment("a b/c?d#e!'()*"), "a%20b%2Fc%3Fd%23e%21%27%28%29%2A");
  const r = route({
    path: "/users/{user-id}/x",
    params: { userId: { location: "path", required: true, wire_name: "user-id" } },
  });
  assert.equal(
    buildRequestParts(r, values({ userId: 42 }), "https://h.example/v1").url.href,
    "https://h.example/v1/users/42/x",
  );
  for (const bad of ["", ".", "..", "a\u0000b", { a: 1 }, null, undefined]) {
    assert.throws(
      () => buildRequestParts(r, values({ userId: bad }), "https://h.example"),
      (error) =>
        error instanceof ToolError && error.code === "VALIDATION_ERROR" && error.message.includes("'userId'"),
    );
  }
});

Deno.test("query values: null omitted, booleans as words, scalar arrays repeated, objects in brackets", () => {
  const r = route({
    params: {
      a: { location: "query", required: false },
      b: { location: "query", required: false },
      c: { location: "query", required: false },
      d: { location: "query", required: false },
      e: { location: "query", required: false },
    },
  });
  const parts = buildRequestParts(
    r,
    values({ a: null, b: false, c: [1, "two"], d: { x: { y: "z" } }, e: [{ k: 1 }, { k: 2 }] }),
    "https://h.example",
  );
  assert.equal(
    decodeURIComponent(parts.url.search),
    "?b=false&c=1&c=two&d[x][y]=z&e[0][k]=1&e[1][k]=2",
  );
  assert.equal(parts.body, undefined, "GET carries no body");
});

Deno.test("bodies: raw_body is the whole body, declared body params always make an object, GET and HEAD none", () => {
  const raw = route({ method: "PUT", params: { doc: { location: "raw_body", required: true } } });
  assert.deepEqual(buildRequestParts(raw, values({ doc: [1, 2] }), "https://h.example").body, {
    text: "[1,2]",
    contentType: "application/json",
  });
  const post = route({ method: "POST", params: { a: { location: "body", required: false } } });
  assert.equal(buildRequestParts(post, values({}), "https://h.example").body?.text, "{}");
  const form = route({
    method: "POST",
    body_encoding: "form",
    params: { doc: { location: "raw_body", required: true } },
  });
  assert.equal(
    buildRequestParts(form, values({ doc: { a: [1, 2] } }), "https://h.example").body?.text,
    "a%5B0%5D=1&a%5B1%5D=2",
  );
  const head = route({ method: "HEAD", params: { a: { location: "body", required: false } } });
  assert.equal(buildRequestParts(head, values({ a: 1 }), "https://h.example").body, undefined);
  const proto = route({
    method: "POST",
    params: { p: { location: "body", required: false, wire_name: "__proto__" } },
  });
  assert.equal(
    buildRequestParts(proto, values({ p: { x: 1 } }), "https://h.example").body?.text,
    '{"__proto__":{"x":1}}',
  );
});

Deno.test("flatten keeps form arrays indexed and skips nulls", () => {
  assert.deepEqual(flatten("k", ["a", null, "b"], true), [["k", "a"], ["k", "b"]]);
  assert.deepEqual(flatten("k", ["a", "b"], false), [["k[0]", "a"], ["k[1]", "b"]]);
  assert.deepEqual(flatten("k", null, true), []);
});

Deno.test("callValues sends hidden defaults and ignores what the agent says about hidden params", () => {
  const tool = toolOf(petPlan(), "get_pet");
  const sent = callValues(tool, { petId: "1", api_version: "evil", unknown: 1 });
  assert.deepEqual(Object.fromEntries(sent), { petId: "1", api_version: "2024-01" });
});

Deno.test("selectRoute takes null only where the schema admits it, and lists alternatives", () => {
  const tool = toolOf(petPlan(), "find_pets");
  assert.equal(selectRoute(tool, values({ owner: "ann" })).operation_id, "petsByOwner");
  assert.throws(() => selectRoute(tool, values({ owner: null })), /Provide one of: owner \| name \+ species/);
  assert.equal(routeAlternatives(tool), "owner | name + species");
  assert.equal(admitsNull({ type: ["string", "null"] }), true);
  assert.equal(admitsNull({ nullable: true }), true);
  assert.equal(admitsNull({ anyOf: [{ type: "string" }, { type: "null" }] }), true);
  assert.equal(admitsNull({ type: "string" }), false);
});
