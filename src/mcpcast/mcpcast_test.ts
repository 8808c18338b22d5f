import assert from "node:assert/strict";
import { loadPlan, mcpcast, McpcastError, savePlan } from "./mod.ts";

const PETSTORE = new URL("../../tests/fixtures/specs/petstore_swagger2.yaml", import.meta.url).pathname;

Deno.test("mcpcast plans the Swagger 2 petstore under each profile; the plan survives YAML", async () => {
  const counts: Record<string, [number, number, number]> = {};
  for (const profile of ["read-only", "standard", "full"] as const) {
    const plan = await mcpcast(PETSTORE, { profile });
    const gated = plan.tools.filter((tool) => tool.requires_approval).length;
    counts[profile] = [plan.tools.length, gated, plan.dropped.length];
    assert.ok(plan.tools.every((tool) => profile !== "read-only" || tool.risk === "read"));
    assert.deepEqual(loadPlan(savePlan(plan)), plan);
  }
  assert.ok(
    counts["read-only"][0] < counts.standard[0] && counts.standard[0] < counts.full[0],
    JSON.stringify(counts),
  );
  assert.equal(counts["read-only"][1], 0);
  assert.equal(counts.full[0] + counts.full[2], counts["read-only"][0] + counts["read-only"][2]);
});

Deno.test("mcpcast refuses a missing source and bad options with McpcastError", async () => {
  await assert.rejects(mcpcast("no/such/spec.yaml"), McpcastError);
  await assert.rejects(mcpcast(PETSTORE, { maxTools: 0 }), /max_tools/);
});

Deno.test("mcpcast plans only the selected operations", async () => {
  const plan = await mcpcast(PETSTORE, { profile: "full", select: { tags: ["store"] } });
  const operations = plan.tools.flatMap((tool) => tool.routes.map((route) => route.path));
  assert.ok(
    operations.length > 0 && operations.every((path) => path.startsWith("/store")),
    operations.join(),
  );
  assert.ok(plan.dropped.every((drop) => !drop.operation_id.toLowerCase().includes("pet")));
});
