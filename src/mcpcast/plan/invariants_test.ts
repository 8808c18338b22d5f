import assert from "node:assert/strict";
import { type Doc, planDoc, SECRET } from "../_test_plans.ts";
import { assertRefused, routeOf, toolOf } from "./_test_plan_fixtures.ts";
import { pathPlaceholders, routeIssues } from "./invariants.ts";
import { validatePlan } from "./schema.ts";

Deno.test("the reference plan document is valid", () => {
  const result = validatePlan(planDoc());
  assert.ok(result.ok, result.ok ? "" : result.issues.join("\n"));
});

Deno.test("pathPlaceholders lists the placeholders of a path template in order", () => {
  assert.deepEqual(pathPlaceholders("/users/{user-id}/repos/{repo}"), ["user-id", "repo"]);
  assert.deepEqual(pathPlaceholders("/plain"), []);
});

Deno.test("a path placeholder without a path parameter of that wire name is refused", () => {
  const doc = planDoc();
  const route = routeOf(doc, 0);
  route.params = { petId: { location: "path", required: true, wire_name: "pet" } };
  const line = assertRefused(doc, "tools[0].routes[0].path", ["tool 'get_pet'", "route 'getPet'", "'petId'"]);
  assert.match(line, /have no matching path parameter/);
});

Deno.test("a path parameter that matches no placeholder is refused", () => {
  const doc = planDoc();
  routeOf(doc, 0).path = "/pets";
  assertRefused(doc, "tools[0].routes[0].params", ["tool 'get_pet'", "'petId'", "do not appear in the path"]);
});

Deno.test("a placeholder matched through a wire name is accepted", () => {
  const doc = planDoc();
  routeOf(doc, 0).params = { pet: { location: "path", required: true, wire_name: "petId" } };
  toolOf(doc, 0).params = { pet: { required: true } };
  toolOf(doc, 0).example = null;
  assert.ok(validatePlan(doc).ok);
});

Deno.test("two raw_body parameters on one route are refused", () => {
  const doc = planDoc();
  const route = routeOf(doc, 0);
  route.method = "POST";
  route.params = {
    petId: { location: "path", required: true },
    a: { location: "raw_body" },
    b: { location: "raw_body" },
  };
  toolOf(doc, 0).params = { petId: {}, a: {}, b: {} };
  toolOf(doc, 0).risk = "write";
  toolOf(doc, 0).requires_approval = true;
  toolOf(doc, 0).example = null;
  assertRefused(doc, "tools[0].routes[0].params", ["tool 'get_pet'", "only one raw_body parameter"]);
});

Deno.test("route checks refuse an optional path parameter, raw_body beside body and a doubled wire name", () => {
  const route = {
    operation_id: "op",
    method: "POST" as const,
    path: "/a/{id}",
    params: {
      id: { location: "path" as const, required: false },
      raw: { location: "raw_body" as const, required: false },
      x: { location: "body" as const, required: false },
      y: { location: "body" as const, required: false, wire_name: "x" },
    },
    body_encoding: "json" as const,
  };
  const messages = routeIssues(route, "route 'op'").map((issue) => issue.message);
  assert.deepEqual(messages, [
    "route 'op': path parameter 'id' must be required",
    "route 'op': parameters 'x' and 'y' both send body 'x'",
    "route 'op': a raw_body parameter cannot be combined with body parameters",
  ]);
});

Deno.test("an operation listed twice in one tool is refused", () => {
  const doc = planDoc();
  const tool = toolOf(doc, 0);
  tool.routes = [routeOf(doc, 0), structuredClone(routeOf(doc, 0))];
  assertRefused(doc, "tools[0].routes[1].operation_id", ["tool 'get_pet'", "lists operation 'getPet' twice"]);
});

Deno.test("a route parameter the tool does not declare is refused", () => {
  const doc = planDoc();
  delete (toolOf(doc, 0).params as Doc).verbose;
  assertRefused(doc, "tools[0].routes[0].params", [
    "tool 'get_pet'",
    "route 'getPet'",
    "'verbose'",
    "not declared",
  ]);
});

Deno.test("a parameter a route requires cannot be hidden without a default", () => {
  const doc = planDoc();
  (toolOf(doc, 0).params as Record<string, Doc>).petId = { description: SECRET, hidden: true };
  toolOf(doc, 0).example = null;
  assertRefused(doc, "tools[0].params.petId", [
    "tool 'get_pet'",
    "route 'getPet'",
    "hidden without a default",
  ]);
});

Deno.test("a hidden required parameter needs a default", () => {
  const doc = planDoc();
  (toolOf(doc, 0).params as Record<string, Doc>).verbose = {
    hidden: true,
    required: true,
    description: SECRET,
  };
  assertRefused(doc, "tools[0].params.verbose", ["tool 'get_pet'", "'verbose'", "hidden and required"]);
  (toolOf(doc, 0).params as Record<string, Doc>).verbose = { hidden: true, required: true, default: SECRET };
  assert.ok(validatePlan(doc).ok);
});

function twoRouteDoc(first: Doc, second: Doc): Doc {
  const doc = planDoc();
  const tool = toolOf(doc, 0);
  tool.routes = [
    { operation_id: "listPets", method: "GET", path: "/pets", params: first },
    { operation_id: "findPets", method: "GET", path: "/pets/find", params: second },
  ];
  tool.params = { q: { default: SECRET }, tag: {}, limit: {} };
  tool.example = null;
  return doc;
}

Deno.test("a route whose required parameters include an earlier route's can never be selected", () => {
  const doc = twoRouteDoc({ limit: { location: "query" } }, { q: { location: "query", required: true } });
  const line = assertRefused(doc, "tools[0].routes[1]", [
    "tool 'get_pet'",
    "route 'findPets' can never be selected",
    "route 'listPets'",
    "reorder",
  ]);
  assert.match(line, /more specific one comes first/);
});

Deno.test("routes with disjoint required parameters, most specific first, are reachable", () => {
  const q = { location: "query", required: true };
  assert.ok(validatePlan(twoRouteDoc({ q, tag: q }, { q })).ok);
  assert.ok(validatePlan(twoRouteDoc({ q }, { tag: q })).ok);
  assert.ok(validatePlan(twoRouteDoc({ q, tag: q }, { limit: { location: "query" } })).ok);
  assertRefused(twoRouteDoc({ q }, { q, tag: q }), "tools[0].routes[1]", [
    "route 'findPets' can never be selected",
  ]);
});

Deno.test("dispatch counts only visible required parameters: a hidden one does not distinguish routes", () => {
  const q = { location: "query", required: true };
  const doc = twoRouteDoc({ tag: q }, { q });
  assert.ok(validatePlan(doc).ok);
  (toolOf(doc, 0).params as Record<string, Doc>).tag = { hidden: true, default: SECRET };
  assertRefused(doc, "tools[0].routes[1]", ["tool 'get_pet'", "route 'findPets' can never be selected"]);
});

Deno.test("example keys must be visible parameters of the tool", () => {
  const doc = planDoc();
  toolOf(doc, 0).example = { petId: "1", nope: SECRET };
  assertRefused(doc, "tools[0].example", ["tool 'get_pet'", "'nope'"]);
  const hidden = planDoc();
  (toolOf(hidden, 0).params as Record<string, Doc>).verbose = { hidden: true, default: true };
  toolOf(hidden, 0).example = { petId: "1", verbose: SECRET };
  assertRefused(hidden, "tools[0].example", ["tool 'get_pet'", "unknown or hidden", "'verbose'"]);
});
