import assert from "node:assert/strict";
import { test } from "node:test";
import { startModelServer } from "../../models/testing/mod.ts";
import { envOf } from "../_test_parse.ts";
import { parseSpec } from "../parse/mod.ts";
import { buildPlan, validatePlan } from "../plan/mod.ts";
import { curate } from "./curate.ts";

const PETSTORE = "tests/fixtures/specs/petstore_oas30.json";

interface CatalogueLine {
  operation_id: string;
  method: string;
  path: string;
  summary: string;
  deprecated: boolean;
  risk: string;
}

/**
 * A scripted "mirror" model: it reads the catalogue from the prompt and proposes one tool per
 * operation that is not deprecated (named after the operation, described by its summary), dropping
 * the deprecated ones.
 */
function mirror(user: string): string {
  const catalogue: CatalogueLine[] = user.split("\n").filter((line) => line.startsWith('{"operation_id"'))
    .map((line) => JSON.parse(line));
  const snake = (id: string) => id.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  return JSON.stringify({
    tools: catalogue.filter((entry) => !entry.deprecated).map((entry) => ({
      name: snake(entry.operation_id),
      description: entry.summary || `${entry.method} ${entry.path}`,
      risk: entry.risk,
      operations: [entry.operation_id],
    })),
    dropped: catalogue.filter((entry) => entry.deprecated).map((entry) => ({
      operation_id: entry.operation_id,
      reason: "deprecated in spec",
    })),
  });
}

test("curating the pet-store fixture with a mirror model gives the deterministic plan's tools under each profile", async () => {
  const spec = await parseSpec(PETSTORE);
  await using server = startModelServer({
    respond: (request) => ({ text: mirror(String(request.messages[1].content)) }),
  });
  for (const profile of ["read-only", "standard", "full"] as const) {
    const { plan, attempts } = await curate(spec, {
      model: "openai-compatible:mirror",
      env: envOf({ OPENAI_COMPATIBLE_BASE_URL: server.url }),
      profile,
    });
    assert.equal(attempts, 1);
    assert.equal(validatePlan(plan).ok, true);
    const deterministic = buildPlan(spec, { profile });
    const routesOf = (tools: typeof plan.tools) =>
      tools.map((tool) => [tool.routes[0].operation_id, tool.risk, tool.requires_approval]);
    assert.deepEqual(routesOf(plan.tools), routesOf(deterministic.tools), profile);
    assert.deepEqual(
      plan.dropped.map((drop) => drop.operation_id).sort(),
      deterministic.dropped.map((drop) => drop.operation_id).sort(),
      profile,
    );
  }
});
