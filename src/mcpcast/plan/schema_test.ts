import assert from "node:assert/strict";
import { type Doc, planDoc, SECRET } from "../_test_plans.ts";
import { assertRefused, problemsOf, routeOf, toolOf } from "./_test_plan_fixtures.ts";
import { McpcastError } from "../errors.ts";
import { formatLocation } from "./issues.ts";
import {
  effectiveApproval,
  gatedTools,
  keptOperations,
  parsePlan,
  toolNames,
  validatePlan,
} from "./schema.ts";

function withBaseUrl(value: string): Doc {
  const doc = planDoc();
  (doc.api as Doc).base_url = value;
  return doc;
}

Deno.test("defaults are filled: auth passthrough, header Authorization, profile read-only, empty lists", () => {
  const plan = parsePlan({ api: { name: "pets", base_url: "https://api.example.com/" } });
  assert.deepEqual(plan, {
    version: 1,
    api: {
      name: "pets",
      base_url: "https://api.example.com",
      auth: "passthrough",
      approval: null,
      description: "",
      spec_source: null,
      credential_location: "header",
      credential_name: "Authorization",
    },
    profile: "read-only",
    tools: [],
    dropped: [],
  });
});

Deno.test("tool, route and param defaults are filled and descriptions trimmed", () => {
  const doc = planDoc();
  toolOf(doc, 0).description = "  Fetch one pet.  ";
  const tool = parsePlan(doc).tools[0];
  assert.equal(tool.description, "Fetch one pet.");
  assert.deepEqual(tool.routes[0].params.verbose, { location: "query", required: false });
  assert.equal(tool.routes[0].body_encoding, "json");
  assert.deepEqual(tool.params.petId.json_schema, { type: "string" });
  assert.equal(tool.params.petId.hidden, false);
  assert.ok(!("default" in tool.params.petId));
  assert.deepEqual(tool.tags, []);
  assert.equal(tool.requires_approval, false);
});

Deno.test("unknown keys are refused at every level and named in the location", () => {
  const doc = planDoc();
  doc.extra = 1;
  (doc.api as Doc).token = SECRET;
  routeOf(doc, 0).headers = {};
  const problems = problemsOf(doc);
  assert.deepEqual(problems.filter((line) => line.endsWith("unknown key")).sort(), [
    "api.token: unknown key",
    "extra: unknown key",
    "tools[0].routes[0].headers: unknown key",
  ]);
  assert.ok(problems.every((line) => !line.includes(SECRET)));
});

Deno.test("invalid names, version, blank descriptions and relative paths are refused", () => {
  const doc = planDoc();
  doc.version = 2;
  (doc.api as Doc).name = "Pet Store";
  toolOf(doc, 0).name = "delete";
  toolOf(doc, 1).description = "   ";
  routeOf(doc, 1).path = "pets/{petId}";
  const problems = problemsOf(doc);
  assert.ok(
    problems.includes("version: version must be 1 (the only plan schema version this mcpcast reads)"),
  );
  assert.ok(problems.some((line) => line.startsWith("api.name: api name must match")));
  assert.ok(
    problems.includes("tools[0].name: tool name is reserved by the generated server or by JavaScript"),
  );
  assert.ok(problems.includes("tools[1].description: tool description must not be blank"));
  assert.ok(problems.includes("tools[1].routes[0].path: route path must start with '/'"));
});

Deno.test("base_url: trailing slash and surrounding space stripped", () => {
  assert.equal(
    parsePlan(withBaseUrl(" https://api.example.com/v1// ")).api.base_url,
    "https://api.example.com/v1",
  );
});

Deno.test("base_url with credentials is refused naming only the host", () => {
  const line = assertRefused(withBaseUrl(`https://bob:${SECRET}@api.example.com/v1`), "api.base_url", [
    "must not carry credentials",
    "host 'api.example.com'",
  ], ["bob"]);
  assert.match(line, /--auth env-token/);
});

Deno.test("base_url with whitespace or a control character is refused naming the character and offset", () => {
  assertRefused(withBaseUrl(`https://api.example.com/${SECRET} x`), "api.base_url", ["U+0020 at offset 41"]);
  assertRefused(withBaseUrl(`https://api.example.com/\u001b${SECRET}`), "api.base_url", [
    "U+001B at offset 24",
  ]);
});

Deno.test("base_url with a query or fragment is refused without echoing it", () => {
  assertRefused(withBaseUrl(`https://api.example.com/v1?api_key=${SECRET}`), "api.base_url", [
    "query string",
  ]);
  assertRefused(withBaseUrl(`https://api.example.com/v1#${SECRET}`), "api.base_url", ["fragment"]);
});

Deno.test("a relative or empty base_url gets a hint to pass --base-url", () => {
  assertRefused(withBaseUrl("/v1"), "api.base_url", ["absolute http:// or https:// URL", "--base-url"]);
  assertRefused(withBaseUrl(""), "api.base_url", ["base_url is empty", "--base-url"]);
  assertRefused(withBaseUrl("ftp://files.example.com"), "api.base_url", ["absolute http://"]);
});

Deno.test("a route base_url follows the same rules; null means none", () => {
  const doc = planDoc();
  routeOf(doc, 0).base_url = `https://u:${SECRET}@other.example.com`;
  assertRefused(doc, "tools[0].routes[0].base_url", ["route base_url must not carry credentials"]);
  routeOf(doc, 0).base_url = null;
  assert.ok(!("base_url" in parsePlan(doc).tools[0].routes[0]));
  routeOf(doc, 0).base_url = "https://other.example.com/";
  assert.equal(parsePlan(doc).tools[0].routes[0].base_url, "https://other.example.com");
});

Deno.test("spec_source keeps the public form of a URL", () => {
  const doc = planDoc();
  (doc.api as Doc).spec_source = `https://me:${SECRET}@specs.example.com/openapi.json?key=${SECRET}#top`;
  assert.equal(parsePlan(doc).api.spec_source, "https://specs.example.com/openapi.json");
  (doc.api as Doc).spec_source = "<inline>";
  assert.equal(parsePlan(doc).api.spec_source, "<inline>");
});

Deno.test("text fields are scrubbed of terminal controls", () => {
  const doc = planDoc();
  toolOf(doc, 0).description = "Fetch\u001b[2K one\u0085 pet\u009b";
  toolOf(doc, 0).tags = ["pe\u0007ts"];
  doc.dropped = [{ operation_id: "legacy\u0000Pets", reason: "old\u001b]52;c;x\u0007" }];
  const plan = parsePlan(doc);
  assert.equal(plan.tools[0].description, "Fetch[2K one pet");
  assert.deepEqual(plan.tools[0].tags, ["pets"]);
  assert.deepEqual(plan.dropped, [{ operation_id: "legacyPets", reason: "old]52;c;x" }]);
});

Deno.test("dates and non-finite numbers in schemas, defaults and examples become strings", () => {
  const doc = planDoc();
  (toolOf(doc, 0).params as Record<string, Doc>).verbose = {
    json_schema: { type: "string", maximum: Infinity, minimum: -Infinity, example: new Date("2026-01-15") },
    default: NaN,
  };
  toolOf(doc, 0).example = { petId: new Date("2026-01-15T09:30:00Z") };
  const tool = parsePlan(doc).tools[0];
  assert.deepEqual(tool.params.verbose.json_schema, {
    type: "string",
    maximum: "Infinity",
    minimum: "-Infinity",
    example: "2026-01-15",
  });
  assert.equal(tool.params.verbose.default, "NaN");
  assert.deepEqual(tool.example, { petId: "2026-01-15T09:30:00.000Z" });
});

Deno.test("a value that contains itself is refused", () => {
  const doc = planDoc();
  const loop: Doc = {};
  loop.self = loop;
  (toolOf(doc, 0).params as Record<string, Doc>).verbose = { default: loop };
  assertRefused(doc, "tools[0].params.verbose.default", ["contains itself"]);
});

Deno.test("parsePlan throws McpcastError listing loc and message lines", () => {
  assert.throws(
    () => parsePlan(withBaseUrl(`https://x:${SECRET}@h.example.com`)),
    (error: unknown) =>
      error instanceof McpcastError && error.message.startsWith("invalid plan:\n- api.base_url: ") &&
      !error.message.includes(SECRET),
  );
});

Deno.test("locations quote keys that are not identifiers", () => {
  assert.equal(formatLocation(["tools", 0, "params", "user-id"]), 'tools[0].params["user-id"]');
  assert.equal(formatLocation([]), "(plan)");
});

Deno.test("plan helpers: effective approval, gated tools, kept operations, tool names", () => {
  assert.equal(effectiveApproval({ auth: "api-key", approval: null }), "pending");
  assert.equal(effectiveApproval({ auth: "env-token", approval: null }), "elicitation");
  assert.equal(effectiveApproval({ auth: "api-key", approval: "elicitation" }), "elicitation");
  const result = validatePlan(planDoc());
  assert.ok(result.ok);
  assert.deepEqual(gatedTools(result.plan).map((tool) => tool.name), ["delete_pet"]);
  assert.deepEqual(keptOperations(result.plan), new Set(["getPet", "deletePet"]));
  assert.deepEqual(toolNames(result.plan), ["get_pet", "delete_pet"]);
});

Deno.test("a parameter named __proto__ is refused in tool and route params, not turned into a prototype", () => {
  const doc = planDoc();
  toolOf(doc, 0).params = JSON.parse('{"__proto__": {"description": "odd"}}');
  routeOf(doc, 0).params = JSON.parse('{"__proto__": {"location": "query"}}');
  const problems = problemsOf(doc);
  assert.ok(problems.includes("tools[0].params.__proto__: parameter name '__proto__' is not supported"));
  assert.ok(
    problems.includes("tools[0].routes[0].params.__proto__: parameter name '__proto__' is not supported"),
  );
});

Deno.test("a json_schema that is not a mapping is refused", () => {
  for (const bad of ["string", ["type", "string"], null, 3]) {
    const doc = planDoc();
    (toolOf(doc, 0).params as Record<string, Doc>).petId.json_schema = bad;
    assert.ok(problemsOf(doc).includes("tools[0].params.petId.json_schema: expected a mapping"), String(bad));
  }
});
