import assert from "node:assert/strict";
import { test } from "node:test";
import { startModelServer } from "../src/models/testing/mod.ts";
import { curate, evaluate, parseSpec, validatePlan } from "../src/mcpcast/mod.ts";
import { buildPlanServer } from "../src/mcpcast/runtime/mod.ts";
import { mcpcastModelReply } from "./mcpcast_model.ts";

const SPEC = new URL("../tests/fixtures/specs/petstore_oas30.json", import.meta.url).pathname;

test("the scripted mcpcast model curates the pet store into fewer valid tools and scores its own tasks", async () => {
  await using server = startModelServer({ respond: mcpcastModelReply });
  const env = (name: string) => name === "OPENAI_COMPATIBLE_BASE_URL" ? server.url : undefined;
  const model = "openai-compatible:scripted";
  const spec = await parseSpec(SPEC);
  const result = await curate(spec, { model, env, profile: "standard", auth: "none" });
  assert.equal(result.attempts, 1);
  assert.equal(validatePlan(result.plan).ok, true);
  const reads = result.plan.tools.filter((tool) => tool.risk === "read");
  assert.ok(reads.some((tool) => tool.routes.length > 1), "reads of one resource are merged");
  assert.ok(result.plan.tools.length < spec.operations.length);
  const report = await evaluate(result.plan, (options) => buildPlanServer(result.plan, options), {
    model,
    env,
    tasks: 6,
    operations: spec.operations,
    liveReads: false,
  });
  assert.equal(report.total, 6);
  assert.ok(report.score > 0 && report.score <= 1);
  assert.match(report.grade, /^[A-F]$/);
});
