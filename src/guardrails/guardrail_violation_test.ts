import assert from "node:assert/strict";
import { GUARDRAIL_VIOLATION, GuardrailViolation, isGuardrailViolation } from "./guardrail_violation.ts";

Deno.test("a GuardrailViolation names its sorted categories and keeps a stable code", () => {
  const error = new GuardrailViolation(["pii", "instruction_override", "pii"]);
  assert.equal(error.name, "GuardrailViolation");
  assert.equal(error.code, GUARDRAIL_VIOLATION);
  assert.deepEqual(error.categories, ["instruction_override", "pii"]);
  assert.equal(error.message, "blocked by guardrails: instruction_override, pii");
  assert.equal(new GuardrailViolation([], { message: "custom" }).message, "custom");
});

Deno.test("isGuardrailViolation knows violations by class, name or code, and nothing else", () => {
  assert.ok(isGuardrailViolation(new GuardrailViolation(["x"])));
  assert.ok(isGuardrailViolation(Object.assign(new Error("x"), { name: "GuardrailViolation" })));
  assert.ok(isGuardrailViolation({ code: "GUARDRAIL_VIOLATION" }));
  assert.ok(!isGuardrailViolation(new TypeError("model not loaded")));
  assert.ok(!isGuardrailViolation("GuardrailViolation"));
  assert.ok(!isGuardrailViolation(null));
});
