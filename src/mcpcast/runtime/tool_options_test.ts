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

Deno.test("annotations follow the risk and gated tools require approval", () => {
  const pets = petPlan();
  const read = planToolOptions(toolOf(pets, "get_pet"));
  assert.equal(read.readOnlyHint, true);
  assert.equal(read.destructiveHint, undefined);
  assert.equal(read.idempotentHint, true);
  assert.equal(read.openWorldHint, true);
  const destructive = planToolOptions(toolOf(pets, "delete_pet"));
  assert.equal(destructive.destructiveHint, true);
  assert.equal(destructive.requiresApproval, true);
  const financial = planToolOptions(toolOf(pets, "charge"));
  assert.equal(financial.destructiveHint, undefined);
  assert.equal(financial.idempotentHint, false);
  assert.equal(financial.requiresApproval, true);
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
