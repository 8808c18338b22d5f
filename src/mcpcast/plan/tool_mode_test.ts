import assert from "node:assert/strict";
import { planDoc } from "../_test_plans.ts";
import { loadPlan, savePlan } from "./yaml.ts";
import { validatePlan } from "./schema.ts";
import { META_TOOL_NAMES } from "./tool_mode.ts";

function withMode(mode: unknown, names: string[] = []): Record<string, unknown> {
  const doc = planDoc();
  const api = doc.api as Record<string, unknown>;
  doc.api = { ...api, tool_mode: mode };
  const tools = doc.tools as Array<Record<string, unknown>>;
  names.forEach((name, i) => tools[i].name = name);
  return doc;
}

Deno.test("tool_mode meta survives a YAML round trip and direct is the omitted default", () => {
  const meta = validatePlan(withMode("meta"));
  assert.ok(meta.ok);
  const text = savePlan(meta.plan);
  assert.match(text, /\n  tool_mode: meta\n/);
  assert.deepEqual(loadPlan(text), meta.plan);
  const direct = validatePlan(withMode("direct"));
  assert.ok(direct.ok);
  assert.equal(direct.plan.api.tool_mode, undefined);
  assert.doesNotMatch(savePlan(direct.plan), /tool_mode/);
  assert.deepEqual(loadPlan(savePlan(direct.plan)), direct.plan);
});

Deno.test("an unknown tool_mode is refused", () => {
  const result = validatePlan(withMode("lazy"));
  assert.ok(!result.ok);
  assert.match(result.issues.join("\n"), /api\.tool_mode/);
});

Deno.test("a meta-mode plan may not name a tool after a meta tool; a direct plan may", () => {
  for (const name of META_TOOL_NAMES) {
    const result = validatePlan(withMode("meta", [name]));
    assert.ok(!result.ok);
    assert.match(result.issues.join("\n"), new RegExp(`tool name '${name}' is taken by the meta-tool mode`));
    assert.ok(validatePlan(withMode("direct", [name])).ok);
  }
});
