import assert from "node:assert/strict";
import { petPlan, plan } from "../_test_plans.ts";
import { toolOf } from "./_test_runtime.ts";
import {
  PARAM_SCHEMA_MAX,
  planToolDescription,
  planToolInput,
  planToolOptions,
  TOOL_SCHEMA_MAX,
} from "./tool_options.ts";

Deno.test("the input schema lists visible params with their description and default, required ones required", () => {
  const tool = toolOf(petPlan(), "get_pet");
  const input = planToolInput(tool);
  assert.deepEqual(Object.keys(input.properties ?? {}), ["petId", "tags", "filter", "flag"]);
  assert.deepEqual(input.required, ["petId"]);
  const withText = plan({
    api: { name: "t", base_url: "https://h.example" },
    tools: [{
      name: "t",
      description: "T.",
      risk: "read",
      routes: [{ operation_id: "t", method: "GET", path: "/t", params: { q: { location: "query" } } }],
      params: {
        q: { description: "Search words", default: "all", json_schema: { type: "string", nullable: true } },
      },
    }],
  });
  assert.deepEqual(planToolInput(withText.tools[0]).properties?.q, {
    type: ["string", "null"],
    description: "Search words",
    default: "all",
  });
});

/** A one-route tool of `risk` with `method`, its annotations. */
function hints(method: string, risk: string, operationId = "doIt", path = "/things/{id}") {
  const single = plan({
    api: { name: "t", base_url: "https://h.example" },
    profile: "full",
    tools: [{
      name: "t",
      description: "T.",
      risk,
      requires_approval: risk !== "read",
      routes: [{
        operation_id: operationId,
        method,
        path,
        params: { id: { location: "path", required: true } },
      }],
      params: { id: { required: true } },
    }],
  });
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = planToolOptions(single.tools[0]);
  return [readOnlyHint, destructiveHint, idempotentHint, openWorldHint];
}

Deno.test("every tool carries all four hints, from its methods and risk class", () => {
  // [readOnly, destructive, idempotent, openWorld]
  assert.deepEqual(hints("GET", "read", "getThing"), [true, false, true, true]);
  assert.deepEqual(hints("HEAD", "read", "headThing"), [true, false, true, true]);
  assert.deepEqual(hints("POST", "read", "searchThings", "/things/{id}/search"), [true, false, false, true]);
  assert.deepEqual(hints("POST", "write", "createThing"), [false, false, false, true]);
  assert.deepEqual(hints("PATCH", "write", "updateThing"), [false, false, false, true]);
  assert.deepEqual(hints("PUT", "write", "replaceThing"), [false, false, true, true]);
  assert.deepEqual(hints("DELETE", "destructive", "deleteThing"), [false, true, true, true]);
  assert.deepEqual(hints("POST", "destructive", "cancelThing"), [false, true, false, true]);
  assert.deepEqual(hints("POST", "financial", "chargeThing"), [false, false, false, true]);
  // A GET raised to write by a scope the plan does not record still only reads; one naming a delete does not.
  assert.deepEqual(hints("GET", "write", "getThing"), [true, false, true, true]);
  assert.deepEqual(hints("GET", "write", "deleteThingLegacy"), [false, false, true, true]);
});

Deno.test("gated tools are marked in title and description and take an optional approval_code", () => {
  const pets = petPlan();
  const gated = planToolOptions(toolOf(pets, "delete_pet"));
  assert.equal(gated.requiresApproval, true);
  assert.equal(gated.title, "[requires approval] delete_pet");
  assert.match(
    gated.description ?? "",
    /^\[requires approval\] A human must approve every call\.\n\nDelete a pet\./,
  );
  assert.deepEqual(Object.keys(gated.input?.properties ?? {}), ["petId", "approval_code"]);
  assert.deepEqual(gated.input?.required, ["petId"]);
  const noCode = planToolOptions(toolOf(pets, "delete_pet"), { approvalCode: false });
  assert.deepEqual(Object.keys(noCode.input?.properties ?? {}), ["petId"]);
  const read = planToolOptions(toolOf(pets, "get_pet"));
  assert.equal(read.title, undefined);
  assert.equal(read.requiresApproval, false);
  assert.doesNotMatch(read.description ?? "", /requires approval/);
});

Deno.test("the description adds route alternatives, fixed values and the example", () => {
  const pets = petPlan();
  assert.equal(
    planToolDescription(toolOf(pets, "find_pets")),
    "Find pets by owner, or by name and species.\n\nProvide one of: owner | name + species",
  );
  assert.equal(
    planToolDescription(toolOf(pets, "get_pet")),
    'Fetch one pet.\n\nAlways sends: api_version="2024-01"\nExample: {"petId":"7"}',
  );
});

Deno.test("oversized schemas are trimmed under the parameter and tool caps", () => {
  const big = {
    type: "object",
    description: "top",
    properties: Object.fromEntries(
      Array.from(
        { length: 80 },
        (_, i) => [`field_${i}`, { type: "string", description: "d".repeat(80), enum: ["a", "b"] }],
      ),
    ),
  };
  const params = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, { json_schema: big }]));
  const routeParams = Object.fromEntries(Object.keys(params).map((name) => [name, { location: "body" }]));
  const wide = plan({
    api: { name: "t", base_url: "https://h.example" },
    tools: [{
      name: "t",
      description: "T.",
      risk: "write",
      requires_approval: true,
      routes: [{ operation_id: "t", method: "POST", path: "/t", params: routeParams }],
      params,
    }],
  });
  const input = planToolInput(wide.tools[0]);
  for (const schema of Object.values(input.properties ?? {})) {
    assert.ok(JSON.stringify(schema).length <= PARAM_SCHEMA_MAX);
  }
  assert.ok(JSON.stringify(input.properties).length <= TOOL_SCHEMA_MAX);
  assert.equal((input.properties?.p0 as { type: string }).type, "object");
});
