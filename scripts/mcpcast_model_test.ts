import assert from "node:assert/strict";
import { test } from "node:test";
import { startModelServer } from "../src/models/testing/mod.ts";
import {
  buildPlan,
  curate,
  evaluate,
  parseSpec,
  selectOperations,
  validatePlan,
} from "../src/mcpcast/mod.ts";
import { buildPlanServer } from "../src/mcpcast/runtime/mod.ts";
import { mcpcastModelReply } from "./mcpcast_model.ts";

const GITHUB = new URL("../tests/fixtures/specs/api.github.com.json", import.meta.url).pathname;

test("the scripted mcpcast model curates GitHub's issues into fewer valid tools and scores its own tasks", async () => {
  await using server = startModelServer({ respond: mcpcastModelReply });
  const env = (name: string) => name === "OPENAI_COMPATIBLE_BASE_URL" ? server.url : undefined;
  const model = "openai-compatible:scripted";
  const spec = selectOperations(await parseSpec(GITHUB, { responseSchemas: true }), { tags: ["issues"] });
  const reads = buildPlan(spec, { auth: "env-token" }).tools.length;
  const result = await curate(spec, { model, env, auth: "env-token" });
  assert.equal(result.attempts, 1);
  assert.equal(validatePlan(result.plan).ok, true);
  assert.ok(
    result.plan.tools.some((tool) => tool.routes.length > 1),
    "a collection and its items are merged",
  );
  assert.ok(result.plan.tools.length < reads, `${result.plan.tools.length} < ${reads}`);
  const report = await evaluate(result.plan, (options) => buildPlanServer(result.plan, options), {
    model,
    env,
    tasks: 6,
    operations: spec.operations,
    liveReads: false,
  });
  assert.equal(report.total, 6);
  assert.equal(report.liveRequests, 0);
  assert.ok(report.mockedRequests > 0);
  assert.match(report.grade, /^[A-F]$/);
});
