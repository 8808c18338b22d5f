import assert from "node:assert/strict";
import { join } from "node:path";
import { planDoc } from "../_test_plans.ts";
import { writePlanFile } from "./file.ts";
import { parsePlan } from "./schema.ts";
import { loadPlan, savePlan } from "./yaml.ts";

Deno.test("writePlanFile writes savePlan's text, replacing a longer file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "mcpcast.plan.yaml");
    await Deno.writeTextFile(path, "x".repeat(100_000));
    const plan = parsePlan(planDoc());
    writePlanFile(path, plan);
    const text = await Deno.readTextFile(path);
    assert.equal(text, savePlan(plan));
    assert.deepEqual(loadPlan(text), plan);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writePlanFile throws what the file system throws", () => {
  assert.throws(
    () => writePlanFile("/nonexistent/agentry/mcpcast.plan.yaml", parsePlan(planDoc())),
    Deno.errors.NotFound,
  );
});
