import assert from "node:assert/strict";
import { type Doc, planDoc, SECRET } from "../_test_plans.ts";
import { assertRefused, routeOf, toolOf } from "./_test_plan_fixtures.ts";
import { validatePlan } from "./schema.ts";
import { needsApproval, profileAllows, profileExclusionReason, SAFETY_PROFILES } from "./safety_profile.ts";
import type { RiskClass } from "../types.ts";

const RISKS: RiskClass[] = ["read", "write", "destructive", "financial"];

Deno.test("the SafetyProfile matrix: read-only reads; standard adds gated writes; full gates every non-read", () => {
  const allowed = SAFETY_PROFILES.map((profile) => RISKS.filter((risk) => profileAllows(profile, risk)));
  assert.deepEqual(allowed, [["read"], ["read", "write"], RISKS]);
  const gated = SAFETY_PROFILES.map((profile) => RISKS.filter((risk) => needsApproval(profile, risk)));
  assert.deepEqual(gated, [[], ["write"], ["write", "destructive", "financial"]]);
  assert.equal(
    profileExclusionReason("standard", "financial"),
    "financial operation excluded by profile 'standard'",
  );
});

Deno.test("two tools with the same name are refused", () => {
  const doc = planDoc();
  toolOf(doc, 1).name = "get_pet";
  assertRefused(doc, "tools[1].name", ["duplicate tool name 'get_pet'"]);
});

Deno.test("an operation used by two tools is refused", () => {
  const doc = planDoc();
  routeOf(doc, 1).operation_id = "getPet";
  assertRefused(doc, "tools[1].routes[0].operation_id", ["'getPet'", "tool 'get_pet'", "tool 'delete_pet'"]);
});

Deno.test("an operation both kept and dropped is refused", () => {
  const doc = planDoc();
  doc.dropped = [{ operation_id: "deletePet", reason: SECRET }];
  assertRefused(doc, "dropped[0].operation_id", ["'deletePet'", "kept (tool 'delete_pet') and dropped"]);
});

Deno.test("an operation dropped twice is refused", () => {
  const doc = planDoc();
  doc.dropped = [{ operation_id: "x", reason: SECRET }, { operation_id: "x", reason: "again" }];
  assertRefused(doc, "dropped[1].operation_id", ["'x' is dropped twice"]);
});

Deno.test("a tool declared below the risk floor of one of its routes is refused", () => {
  const doc = planDoc();
  toolOf(doc, 1).risk = "read";
  toolOf(doc, 1).requires_approval = false;
  const line = assertRefused(doc, "tools[1].risk", [
    "tool 'delete_pet'",
    "route 'deletePet'",
    "never lower it",
  ]);
  assert.match(line, /at least destructive/);
});

Deno.test("a tool may be declared above its floor, and financial counts as destructive", () => {
  const doc = planDoc();
  toolOf(doc, 0).risk = "write";
  toolOf(doc, 0).requires_approval = true;
  toolOf(doc, 1).risk = "financial";
  assert.ok(validatePlan(doc).ok);
});

Deno.test("a tool whose risk the profile does not allow is refused", () => {
  const doc = planDoc();
  doc.profile = "standard";
  assertRefused(doc, "tools[1].risk", ["tool 'delete_pet'", "profile 'standard' does not allow it"]);
  doc.profile = "read-only";
  assertRefused(doc, "tools[1].risk", ["tool 'delete_pet'", "profile 'read-only'"]);
});

Deno.test("a gated risk without requires_approval is refused; a read may opt in", () => {
  const doc = planDoc();
  toolOf(doc, 1).requires_approval = false;
  assertRefused(doc, "tools[1].requires_approval", ["tool 'delete_pet'", "requires requires_approval: true"]);
  const optIn = planDoc();
  toolOf(optIn, 0).requires_approval = true;
  assert.ok(validatePlan(optIn).ok);
});

Deno.test("pending approval with auth other than api-key is refused", () => {
  const doc = planDoc();
  (doc.api as Doc).approval = "pending";
  assertRefused(doc, "api.approval", ["approval 'pending'", "api-key"]);
  (doc.api as Doc).auth = "api-key";
  assert.ok(validatePlan(doc).ok);
});

Deno.test("credential_name must be a usable header or query name", () => {
  const api = (name: string, location = "header"): Doc => {
    const doc = planDoc();
    doc.api = {
      ...(doc.api as Doc),
      auth: "env-token",
      credential_location: location,
      credential_name: name,
    };
    return doc;
  };
  assert.ok(validatePlan(api("X-API-Key")).ok);
  assert.ok(validatePlan(api("api_key", "query")).ok);
  assertRefused(api(`X ${SECRET}`), "api.credential_name", ["not a valid HTTP header name"]);
  assertRefused(api("Content-Length"), "api.credential_name", [
    "content-length header belongs to the HTTP client",
  ]);
  for (const reserved of ["cookie", "Host", "transfer-encoding"]) {
    assertRefused(api(reserved), "api.credential_name", ["belongs to the HTTP client"]);
  }
  assertRefused(api("", "query"), "api.credential_name", ["non-empty parameter name"]);
  assertRefused(api(`a ${SECRET}`, "query"), "api.credential_name", ["without whitespace"]);
});

Deno.test("passthrough is refused when the credential is not the Authorization header", () => {
  const doc = planDoc();
  doc.api = { ...(doc.api as Doc), credential_name: "X-API-Key" };
  assertRefused(doc, "api.auth", ["passthrough", "env-token"]);
  (doc.api as Doc).credential_name = "authorization";
  assert.ok(validatePlan(doc).ok);
});
