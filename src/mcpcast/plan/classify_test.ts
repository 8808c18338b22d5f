import assert from "node:assert/strict";
import { classify, riskFloor, tokens } from "./classify.ts";
import type { ClassifiedOperation } from "./classify.ts";
import { GITHUB_SPEC_PATH, githubOperations, githubSpecPresent } from "./_test_github_spec.ts";
import { RISK_SEVERITY } from "../types.ts";
import type { HttpMethod } from "../types.ts";

function op(init: Partial<ClassifiedOperation>): ClassifiedOperation {
  return { operationId: "op", method: "GET", path: "/things", scopes: [], deprecated: false, ...init };
}

function assertAtLeastFloor(o: ClassifiedOperation): void {
  const { risk } = classify(o);
  const floor = riskFloor(o.operationId, o.method, o.path);
  assert.ok(
    RISK_SEVERITY[risk] >= RISK_SEVERITY[floor],
    `${o.method} ${o.path} (${o.operationId}): classified ${risk} below floor ${floor}`,
  );
}

Deno.test("tokens split camelCase, acronym and digit boundaries and everything non-alphanumeric", () => {
  assert.deepEqual(tokens("cancelSubscription"), ["cancel", "subscription"]);
  assert.deepEqual(tokens("HTMLParser"), ["html", "parser"]);
  assert.deepEqual(tokens("getPetIDs"), ["get", "pet", "ids"]);
  assert.deepEqual(tokens("oauth2Token"), ["oauth", "2", "token"]);
  assert.deepEqual(tokens("repos/get-branch"), ["repos", "get", "branch"]);
  assert.deepEqual(tokens("/pets/{petId}"), ["pets", "pet", "id"]);
  assert.deepEqual(tokens(""), []);
});

Deno.test("rule 1: GET, HEAD, OPTIONS and TRACE are reads", () => {
  for (const method of ["GET", "HEAD", "OPTIONS", "TRACE"] as const) {
    const c = classify(op({ method, operationId: "createPet", path: "/pets" }));
    assert.deepEqual(c, { risk: "read", base: "read", reasons: [`${method} is a read`] });
  }
});

Deno.test("rule 2: DELETE is destructive whatever it names", () => {
  const c = classify(op({ method: "DELETE", operationId: "searchPets", path: "/pets/{id}" }));
  assert.deepEqual(c, { risk: "destructive", base: "destructive", reasons: ["DELETE is destructive"] });
});

Deno.test("rule 3: a destructive verb in a camelCase id makes a POST destructive, before money words", () => {
  const c = classify(op({ method: "POST", operationId: "cancelSubscription", path: "/subscriptions/{id}" }));
  assert.equal(c.risk, "destructive");
  assert.deepEqual(c.reasons, ["mentions destructive verb 'cancel'"]);
});

Deno.test("rule 3: destructive verbs of five letters or more prefix-match (cancellation, resetting)", () => {
  const cancellation = classify(
    op({ method: "PUT", operationId: "orderCancellation", path: "/orders/{id}" }),
  );
  assert.deepEqual(cancellation.reasons, ["mentions destructive verb 'cancel'"]);
  const reset = classify(
    op({ method: "PATCH", operationId: "x", path: "/x", summary: "Resetting a counter" }),
  );
  assert.equal(reset.risk, "destructive");
});

Deno.test("rule 4: a money word makes a POST financial; refunded matches refund by prefix", () => {
  const c = classify(op({ method: "POST", operationId: "markOrder", path: "/orders/{id}/refunded" }));
  assert.deepEqual(c, { risk: "financial", base: "financial", reasons: ["mentions money ('refund')"] });
  const pays = classify(op({ method: "POST", operationId: "x", path: "/pays" }));
  assert.deepEqual(pays.reasons, ["mentions money ('pay')"]);
});

Deno.test("rule 4: short money words never prefix-match, so payload is not money", () => {
  const c = classify(op({ method: "POST", operationId: "processPayload", path: "/payloads" }));
  assert.deepEqual(c, { risk: "write", base: "write", reasons: ["POST is a write"] });
});

Deno.test("rule 5: a POST led by a query verb with no mutating word is a read", () => {
  const c = classify(op({ method: "POST", operationId: "searchPets", path: "/pets/search" }));
  assert.deepEqual(c, { risk: "read", base: "read", reasons: ["POST that only queries ('search')"] });
});

Deno.test("rule 5: the leading verb may come from the summary or the last path segment", () => {
  const summary = classify(
    op({ method: "POST", operationId: "pets", path: "/pets/{id}", summary: "Find pets" }),
  );
  assert.deepEqual(summary.reasons, ["POST that only queries ('find')"]);
  const segment = classify(op({ method: "POST", operationId: "petsBulk", path: "/pets/lookup/" }));
  assert.deepEqual(segment.reasons, ["POST that only queries ('lookup')"]);
});

Deno.test("rule 5: an initial HTTP verb token in a generated id is skipped", () => {
  const c = classify(op({ method: "POST", operationId: "post_search", path: "/x/{id}" }));
  assert.deepEqual(c.reasons, ["POST that only queries ('search')"]);
});

Deno.test("rule 5: a mutating word anywhere keeps a query-led POST a write", () => {
  const c = classify(op({
    method: "POST",
    operationId: "validateAddress",
    path: "/addresses/validate",
    summary: "Validate and save an address",
  }));
  assert.deepEqual(c, { risk: "write", base: "write", reasons: ["POST is a write"] });
  const withList = classify(
    op({ method: "POST", operationId: "createWithList", path: "/users/createWithList" }),
  );
  assert.equal(withList.risk, "write");
});

Deno.test("rule 5: query words must lead, match exactly, skip placeholders, and graphql is not one", () => {
  const write = (o: Partial<ClassifiedOperation>) =>
    assert.equal(classify(op({ method: "POST", ...o })).risk, "write");
  write({ operationId: "petsBulkList", path: "/pets/bulk" }); // buried, not leading
  write({ operationId: "listings", path: "/listings" }); // listings is not list or lists
  write({ operationId: "post_thing", path: "/things/{query}" }); // last segment is a placeholder
  write({ operationId: "graphql", path: "/graphql" });
  assert.equal(classify(op({ method: "POST", operationId: "x", path: "/lists" })).risk, "read");
});

Deno.test("rule 6: PUT, PATCH and other POSTs are writes", () => {
  for (const method of ["PUT", "PATCH", "POST"] as const) {
    const c = classify(op({ method, operationId: "updatePet", path: "/pets/{id}" }));
    assert.deepEqual(c, { risk: "write", base: "write", reasons: [`${method} is a write`] });
  }
});

Deno.test("the description is never matched", () => {
  const withDescription = {
    ...op({ method: "POST", operationId: "x", path: "/x" }),
    description: "delete refund",
  };
  assert.deepEqual(classify(withDescription).reasons, ["POST is a write"]);
});

Deno.test("escalation: a GET naming a destructive verb (exactly) becomes a write", () => {
  const c = classify(op({ operationId: "legacy", path: "/deletePet" }));
  assert.deepEqual(c, {
    risk: "write",
    base: "read",
    reasons: ["GET is a read", "escalated: GET that appears to mutate ('delete')"],
  });
  assert.equal(classify(op({ path: "/deleted-items" })).risk, "read"); // prefix only: no escalation
  assert.equal(classify(op({ path: "/invoices", summary: "List payments" })).risk, "read"); // money nouns do not
});

Deno.test("escalation: a scope containing admin, root or superuser raises one step; write: scopes do not", () => {
  const c = classify(op({ path: "/reports/revenue", scopes: ["read:reports", "admin:read"] }));
  assert.deepEqual(c.reasons, ["GET is a read", "escalated: requires scope 'admin:read'"]);
  assert.equal(c.risk, "write");
  for (const scope of ["org:ADMIN", "Root", "superuser.all"]) {
    assert.equal(classify(op({ scopes: [scope] })).risk, "write", scope);
  }
  assert.equal(classify(op({ scopes: ["write:pets"] })).risk, "read");
});

Deno.test("escalation: an admin, internal, sudo or impersonate path token raises one step", () => {
  const c = classify(op({ path: "/admin/users" }));
  assert.deepEqual(c, {
    risk: "write",
    base: "read",
    reasons: ["GET is a read", "escalated: path is admin-only"],
  });
  for (
    const path of [
      "/internal/x",
      "/sudo",
      "/users/{id}/impersonate",
      "/branches/enforce_admins",
      "/{admin_id}",
    ]
  ) {
    assert.equal(classify(op({ path })).risk, "write", path);
  }
  assert.equal(classify(op({ path: "/administrators" })).risk, "read");
});

Deno.test("escalation: deprecated raises one step", () => {
  const c = classify(op({ method: "PUT", path: "/pets", deprecated: true }));
  assert.deepEqual(c, {
    risk: "destructive",
    base: "write",
    reasons: ["PUT is a write", "escalated: deprecated"],
  });
});

Deno.test("escalations stack one step each and stop at destructive; financial stays financial", () => {
  const c = classify(op({ path: "/admin/users", scopes: ["admin"], deprecated: true }));
  assert.equal(c.risk, "destructive");
  assert.deepEqual(c.reasons, [
    "GET is a read",
    "escalated: requires scope 'admin'",
    "escalated: path is admin-only",
    "escalated: deprecated",
  ]);
  const money = classify(op({ method: "POST", path: "/admin/refunds", deprecated: true }));
  assert.equal(money.risk, "financial");
  assert.equal(money.reasons.length, 3);
});

Deno.test("riskFloor follows the rules without summary, scopes or deprecation", () => {
  const cases: [string, HttpMethod, string, string][] = [
    ["deletePet", "DELETE", "/pets/{id}", "destructive"],
    ["getPet", "GET", "/pets/{id}", "read"],
    ["legacy", "GET", "/deletePet", "write"],
    ["users", "GET", "/admin/users", "write"],
    ["cancelOrder", "POST", "/orders/{id}", "destructive"],
    ["refund", "POST", "/refunds", "financial"],
    ["createPet", "POST", "/pets", "write"],
    ["searchPets", "POST", "/pets/search", "read"],
    ["doThing", "POST", "/things", "read"], // a summary might have led with a query verb
    ["updatePet", "PUT", "/pets/{id}", "write"],
  ];
  for (const [id, method, path, floor] of cases) assert.equal(riskFloor(id, method, path), floor, id);
});

Deno.test("classify is never below riskFloor, whatever the summary, scopes and deprecation add", () => {
  let seed = 42;
  const pick = <T>(items: readonly T[]): T => items[(seed = (seed * 48271) % 2147483647) % items.length];
  const words = [
    "search",
    "list",
    "create",
    "delete",
    "pay",
    "refund",
    "admin",
    "pets",
    "validate",
    "set",
    "x",
  ];
  const methods: HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];
  for (let i = 0; i < 3000; i++) {
    const id = `${pick(words)}${pick(["", "Pet", "_list", "Admin"])}`;
    const path = `/${pick(words)}/${pick(["{id}", pick(words), "{admin_id}"])}`;
    const summary = pick([undefined, `${pick(words)} ${pick(words)}`, `Post ${pick(words)}`]);
    const scopes = pick([[], ["admin:read"], ["write:pets"]]);
    assertAtLeastFloor({
      operationId: id,
      method: pick(methods),
      path,
      summary,
      scopes,
      deprecated: pick([true, false]),
    });
  }
});

Deno.test({
  name: "classify is never below riskFloor on every GitHub REST operation",
  ignore: !githubSpecPresent(),
  async fn() {
    const operations = await githubOperations();
    assert.ok(operations.length > 1000, `expected the full GitHub spec, got ${operations.length} operations`);
    for (const o of operations) assertAtLeastFloor(o);
    const reads = operations.filter((o) => !o.deprecated && classify(o).risk === "read").length;
    // The reference reports 623 read-only tools for its 1,225-operation version of the spec.
    assert.ok(reads > 550 && reads < 700, `${reads} reads`);
  },
});

if (!githubSpecPresent()) {
  console.warn(`classify_test: GitHub spec test skipped, ${GITHUB_SPEC_PATH} is missing`);
}
