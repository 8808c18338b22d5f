/**
 * The generated project's contract test (issue 15 item 9): its example requests are checked against
 * the spec operations they came from (`tests/contract.json`), not against the plan, so a plan that
 * sends what the spec does not allow fails the project's own tests.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { buildPlan, type McpcastPlan, parseSpec, specDocument, writeProject } from "../src/mcpcast/mod.ts";
import { runDeno, tempDir } from "./_cli_harness.ts";

const ROOT = new URL("../", import.meta.url);
const SPEC = "tests/fixtures/specs/petstore_swagger2.yaml";

/** `deno test` in `cwd`, bounded; its exit code and output. */
function denoTest(cwd: string): Promise<{ code: number; text: string }> {
  return runDeno(["test", "--allow-all"], { cwd });
}

async function generate(
  dir: string,
  plan: McpcastPlan,
  spec: Readonly<Record<string, unknown>>,
): Promise<string> {
  const out = join(dir, plan.api.name);
  await writeProject(plan, out, { frameworkImport: ROOT.href, spec });
  return out;
}

Deno.test("the generated tests check each example request against the spec, not the plan", async (t) => {
  await using dir = await tempDir();
  const parsed = await parseSpec(SPEC);
  const spec = specDocument(parsed);
  assert.ok(spec);
  const plan = buildPlan(parsed, { profile: "full", auth: "env-token" });

  await t.step("a faithful plan passes, contract test included", async () => {
    const out = await generate(join(dir.path, "faithful"), plan, spec);
    const contract = JSON.parse(await Deno.readTextFile(join(out, "tests/contract.json")));
    assert.deepEqual(contract.operations.findPetsByStatus.parameters[0], {
      name: "status",
      in: "query",
      required: true,
      schema: {
        type: "array",
        items: { type: "string", enum: ["available", "pending", "sold"], default: "available" },
      },
      explode: true,
    });
    const { code, text } = await denoTest(out);
    assert.equal(code, 0, text.slice(-3000));
    assert.match(text, /each example request is one the spec's operation accepts \.\.\. ok/);
  });

  await t.step("a plan that renames a query parameter on the wire fails only the contract test", async () => {
    const broken = structuredClone(plan);
    const tool = broken.tools.find((candidate) => candidate.name === "find_pets_by_status");
    assert.ok(tool);
    tool.routes[0].params.status.wire_name = "state";
    const out = await generate(join(dir.path, "broken"), broken, spec);
    const { code, text } = await denoTest(out);
    assert.notEqual(code, 0);
    assert.match(text, /read tools send the request the plan describes \.\.\. ok/);
    assert.match(text, /query parameter 'status' is required but was not sent/);
    assert.match(text, /query parameter 'state' is not in the spec/);
  });
});
