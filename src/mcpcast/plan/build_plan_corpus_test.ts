import assert from "node:assert/strict";
import { githubSpecPresent } from "./_test_github_spec.ts";
import { buildPlan } from "./build_plan.ts";
import { TOOL_NAME_PATTERN } from "./names.ts";
import { parseSpec } from "../parse/parse_spec.ts";
import { keptOperations, toolNames } from "./schema.ts";
import type { McpcastPlan } from "./types.ts";
import { loadPlan, savePlan } from "./yaml.ts";
import { needsApproval, SAFETY_PROFILES } from "./safety_profile.ts";
import type { ParsedSpec } from "../types.ts";

const SPECS = [
  "petstore_oas30.json",
  "petstore_swagger2.yaml",
  "train_travel_oas31.yaml",
  "schema_circular_oas30.yaml",
];

function fixture(name: string): string {
  return new URL(`../../../tests/fixtures/specs/${name}`, import.meta.url).pathname;
}

/** Every operation of the spec is either a tool's route or dropped, exactly once. */
function assertAccountedFor(spec: ParsedSpec, plan: McpcastPlan): void {
  const kept = keptOperations(plan);
  const dropped = plan.dropped.map((op) => op.operation_id);
  assert.equal(new Set(dropped).size, dropped.length);
  assert.ok(dropped.every((id) => !kept.has(id)));
  assert.deepEqual(
    new Set([...kept, ...dropped]),
    new Set(spec.operations.map((op) => op.operationId)),
  );
}

for (const name of SPECS) {
  Deno.test(`${name} converts under every profile into a valid plan that survives YAML`, async () => {
    const spec = await parseSpec(fixture(name));
    for (const profile of SAFETY_PROFILES) {
      const plan = buildPlan(spec, { profile, auth: "env-token" });
      assertAccountedFor(spec, plan);
      for (const tool of plan.tools) assert.equal(tool.requires_approval, needsApproval(profile, tool.risk));
      assert.deepEqual(loadPlan(savePlan(plan)), plan);
    }
  });
}

Deno.test("petstore: read-only exposes the reads; full gates every non-read", async () => {
  const spec = await parseSpec(fixture("petstore_oas30.json"));
  const readOnly = buildPlan(spec, { profile: "read-only" });
  assert.ok(readOnly.tools.length > 0 && readOnly.tools.every((tool) => tool.risk === "read"));
  const full = buildPlan(spec, { profile: "full" });
  assert.ok(full.tools.length > readOnly.tools.length);
  assert.ok(full.tools.every((tool) => tool.requires_approval === (tool.risk !== "read")));
});

Deno.test({
  name: "GitHub REST: every operation accounted for, tool names valid and unique under profile full",
  ignore: !githubSpecPresent(),
  async fn() {
    const spec = await parseSpec(fixture("api.github.com.json"));
    const plan = buildPlan(spec, { profile: "full" });
    assertAccountedFor(spec, plan);
    const names = toolNames(plan);
    assert.equal(new Set(names).size, names.length);
    assert.ok(names.every((name) => TOOL_NAME_PATTERN.test(name)));
    assert.ok(plan.tools.length > 1000);
  },
});

for (const name of ["petstore_oas30.json", "petstore_swagger2.yaml"]) {
  Deno.test(`${name}: operations needing the api_key header are kept beside the OAuth 2 ones, in every mode`, async () => {
    const spec = await parseSpec(fixture(name));
    for (const auth of ["passthrough", "env-token", "api-key", "none"] as const) {
      const plan = buildPlan(spec, { profile: "read-only", auth });
      const route = (id: string) =>
        plan.tools.flatMap((tool) => tool.routes).find((candidate) => candidate.operation_id === id);
      assert.deepEqual(route("getPetById")?.security, [["api_key"]], auth);
      assert.deepEqual(route("getInventory")?.security, [["api_key"]], auth);
      assert.deepEqual(route("findPetsByStatus")?.security, [["petstore_auth"]], auth);
      assert.deepEqual(route("getOrderById")?.security, [], `${auth}: no requirement, nothing sent`);
      assert.deepEqual(plan.api.security_schemes, {
        api_key: { type: "api_key", in: "header", name: "api_key" },
        petstore_auth: { type: "bearer", in: "header", name: "Authorization" },
      });
      assert.deepEqual(loadPlan(savePlan(plan)), plan);
    }
  });
}

Deno.test("a spec without any security requirement defaults to auth none; one with some to passthrough", async () => {
  const petstore = await parseSpec(fixture("petstore_oas30.json"));
  assert.equal(buildPlan(petstore).api.auth, "passthrough");
  const open = await parseSpec(fixture("schema_circular_oas30.yaml"));
  assert.ok(open.operations.every((op) => op.security === undefined));
  const plan = buildPlan(open);
  assert.equal(plan.api.auth, "none");
  assert.ok(plan.tools.every((tool) => tool.routes.every((route) => route.security === undefined)));
});
