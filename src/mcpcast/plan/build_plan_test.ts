import assert from "node:assert/strict";
import { operation, param, parsedSpec } from "./_test_plan_fixtures.ts";
import { buildPlan, describeOperation, planBaseUrl } from "./build_plan.ts";
import { McpcastError } from "../errors.ts";
import { loadPlan, savePlan } from "./yaml.ts";
import type { Operation, SafetyProfile, SecurityScheme } from "../types.ts";

const BUDGET = "raise --max-tools or let curation pick the most useful tools";

function pets(): Operation[] {
  return [
    operation("createPet", "POST", "/pets", { params: [param("name", "body", { required: true })] }),
    operation("listPets", "GET", "/pets", {
      params: [param("limit", "query", { schema: { type: "integer" } })],
    }),
    operation("deletePet", "DELETE", "/pets/{petId}", { params: [param("petId", "path")] }),
    operation("refundOrder", "POST", "/orders/{id}/refund", { params: [param("id", "path")] }),
    operation("getPet", "GET", "/pets/{petId}", { params: [param("petId", "path")] }),
  ];
}

function summary(profile: SafetyProfile, maxTools?: number) {
  const plan = buildPlan(parsedSpec(pets()), { profile, maxTools });
  return {
    tools: plan.tools.map((tool) => `${tool.name} ${tool.risk}${tool.requires_approval ? " gated" : ""}`),
    dropped: plan.dropped.map((op) => `${op.operation_id}: ${op.reason}`),
  };
}

Deno.test("profile read-only keeps reads and drops everything else with the profile reason", () => {
  assert.deepEqual(summary("read-only"), {
    tools: ["list_pets read", "get_pet read"],
    dropped: [
      "createPet: write operation excluded by profile 'read-only'",
      "deletePet: destructive operation excluded by profile 'read-only'",
      "refundOrder: financial operation excluded by profile 'read-only'",
    ],
  });
});

Deno.test("profile standard adds gated writes; full adds gated destructive and financial tools", () => {
  assert.deepEqual(summary("standard"), {
    tools: ["create_pet write gated", "list_pets read", "get_pet read"],
    dropped: [
      "deletePet: destructive operation excluded by profile 'standard'",
      "refundOrder: financial operation excluded by profile 'standard'",
    ],
  });
  assert.deepEqual(summary("full").tools, [
    "create_pet write gated",
    "list_pets read",
    "delete_pet destructive gated",
    "refund_order financial gated",
    "get_pet read",
  ]);
});

Deno.test("the budget keeps the lowest severity first, then spec order, and drops the rest with a reason", () => {
  assert.deepEqual(summary("full", 3), {
    tools: ["create_pet write gated", "list_pets read", "get_pet read"],
    dropped: [
      `deletePet: over tool budget (max_tools=3); ${BUDGET}`,
      `refundOrder: over tool budget (max_tools=3); ${BUDGET}`,
    ],
  });
  assert.deepEqual(summary("full", 1).tools, ["list_pets read"]);
  assert.equal(summary("full", 5).dropped.length, 0);
});

Deno.test("max_tools below 1 (or not an integer) is refused", () => {
  for (const maxTools of [0, -1, 1.5]) {
    assert.throws(() => buildPlan(parsedSpec(pets()), { maxTools }), McpcastError);
  }
});

Deno.test("drops come in order: per-operation reasons, then budget, then tools failing validation", () => {
  const loop: Record<string, unknown> = { type: "object" };
  loop.properties = { self: loop };
  const ops = [
    operation("listA", "GET", "/a"),
    operation("oldB", "GET", "/b", { deprecated: true }),
    operation("listC", "GET", "/c", { params: [param("c", "query", { schema: loop })] }),
    operation("listD", "GET", "/d"),
  ];
  const plan = buildPlan(parsedSpec(ops), { maxTools: 2 });
  assert.deepEqual(plan.tools.map((tool) => tool.name), ["list_a"]);
  assert.deepEqual(plan.dropped, [
    { operation_id: "oldB", reason: "deprecated in spec" },
    { operation_id: "listD", reason: `over tool budget (max_tools=2); ${BUDGET}` },
    {
      operation_id: "listC",
      reason:
        "unsupported by mcpcast: a value contains itself (a reference cycle, such as a YAML alias loop)",
    },
  ]);
});

Deno.test("one tool per operation: name, description, route, params, example, approval, tags", () => {
  const op = operation("updatePet", "PUT", "/pets/{petId}", {
    summary: "Update a pet.",
    description: "Replaces the pet's fields.",
    tags: ["pets"],
    params: [
      param("petId", "path", { schema: { type: "integer" }, description: "Pet id" }),
      param("X-Trace", "header"),
      param("body_petId", "body", { wireName: "petId", schema: {} }),
      param("name", "body", { required: true }),
    ],
  });
  const plan = buildPlan(parsedSpec([op]), { profile: "standard", auth: "env-token" });
  assert.deepEqual(plan.tools, [{
    name: "update_pet",
    description: "Update a pet. Replaces the pet's fields.",
    risk: "write",
    routes: [{
      operation_id: "updatePet",
      method: "PUT",
      path: "/pets/{petId}",
      params: {
        petId: { location: "path", required: true },
        body_petId: { location: "body", required: false, wire_name: "petId" },
        name: { location: "body", required: true },
        "X-Trace": { location: "header", required: false },
      },
      body_encoding: "json",
    }],
    params: {
      petId: { description: "Pet id", json_schema: { type: "integer" }, required: true, hidden: false },
      "X-Trace": { description: "", json_schema: { type: "string" }, required: false, hidden: false },
      body_petId: { description: "", json_schema: { type: "string" }, required: false, hidden: false },
      name: { description: "", json_schema: { type: "string" }, required: true, hidden: false },
    },
    example: { petId: 1, name: "example" },
    requires_approval: true,
    tags: ["pets"],
  }]);
});

Deno.test("the description is the summary, the description, or METHOD /path; both when they differ", () => {
  const op = { method: "GET" as const, path: "/pets" };
  assert.equal(describeOperation({ ...op, summary: "List pets" }), "List pets");
  assert.equal(describeOperation({ ...op, description: "All pets." }), "All pets.");
  assert.equal(describeOperation(op), "GET /pets");
  assert.equal(
    describeOperation({ ...op, summary: "List pets...", description: "All of them." }),
    "List pets. All of them.",
  );
  assert.equal(describeOperation({ ...op, summary: "Same", description: "Same" }), "Same");
});

Deno.test("colliding operation ids get unique tool names", () => {
  const ops = ["getPet", "get_pet", "GetPet", "get-pet"].map((id, i) => operation(id, "GET", `/p${i}`));
  const plan = buildPlan(parsedSpec(ops));
  assert.deepEqual(plan.tools.map((tool) => tool.name), ["get_pet", "get_pet_2", "get_pet_3", "get_pet_4"]);
});

Deno.test("the base URL is the override, else the first document server, else the first own server", () => {
  const spec = parsedSpec([
    operation("a", "GET", "/a", { docBaseUrl: "", baseUrl: "https://own.example.com/" }),
    operation("b", "GET", "/b", { docBaseUrl: "https://doc.example.com/v1/" }),
  ]);
  assert.equal(planBaseUrl(spec, "https://override.example.com/"), "https://override.example.com");
  assert.equal(planBaseUrl(spec), "https://doc.example.com/v1");
  spec.operations[1].docBaseUrl = "";
  assert.equal(planBaseUrl(spec), "https://own.example.com");
  assert.equal(
    buildPlan(spec, { baseUrl: "https://override.example.com/" }).api.base_url,
    "https://override.example.com",
  );
});

Deno.test("a route keeps its operation's own server when it differs from the plan's base", () => {
  const ops = [
    operation("listA", "GET", "/a"),
    operation("listFiles", "GET", "/files", { baseUrl: "https://files.example.com" }),
  ];
  const plan = buildPlan(parsedSpec(ops));
  assert.equal(plan.tools[0].routes[0].base_url, undefined);
  assert.equal(plan.tools[1].routes[0].base_url, "https://files.example.com");
});

Deno.test("the API section comes from the spec and the options", () => {
  const key: SecurityScheme = { id: "key", type: "apiKey", in: "header", paramName: "X-API-Key" };
  const ops = [
    operation("a", "GET", "/a", {
      securityScheme: key,
      credentialSlot: { location: "header", name: "X-API-Key" },
    }),
  ];
  const plan = buildPlan(parsedSpec(ops), { auth: "api-key", name: "pets-api", approval: "elicitation" });
  assert.deepEqual(plan.api, {
    name: "pets-api",
    base_url: "https://api.example.com",
    auth: "api-key",
    approval: "elicitation",
    description: "Pet Store",
    spec_source: "https://specs.example.com/petstore.json",
    credential_location: "header",
    credential_name: "X-API-Key",
    security_schemes: { key: { type: "api_key", in: "header", name: "X-API-Key" } },
  });
  assert.deepEqual(plan.tools[0].routes[0].security, [["key"]]);
  assert.deepEqual(loadPlan(savePlan(plan)), plan);
});

Deno.test("passthrough is refused, and not the default, when the spec's credential is not the Authorization header", () => {
  const key: SecurityScheme = { id: "key", type: "apiKey", in: "query", paramName: "api_key" };
  const ops = [
    operation("a", "GET", "/a", {
      securityScheme: key,
      credentialSlot: { location: "query", name: "api_key" },
    }),
  ];
  assert.throws(() => buildPlan(parsedSpec(ops), { auth: "passthrough" }), (error: unknown) => {
    assert.ok(error instanceof McpcastError);
    assert.match(error.message, /query parameter 'api_key', which --auth passthrough cannot relay/);
    assert.match(error.message, /--auth env-token .* --auth api-key/);
    return true;
  });
  assert.equal(buildPlan(parsedSpec(ops), { auth: "env-token" }).api.credential_location, "query");
  // Unchosen, the auth mode is one that can present the credential.
  assert.equal(buildPlan(parsedSpec(ops)).api.auth, "env-token");
});

Deno.test("a plan that fails final validation is refused with the listing", () => {
  assert.throws(
    () => buildPlan(parsedSpec(pets()), { name: "Bad Name", approval: "pending" }),
    (error: unknown) =>
      error instanceof McpcastError && error.message.startsWith("could not build plan:\n- api.name: ") &&
      error.message.includes("\n- api.approval: "),
  );
  const noBase = parsedSpec([operation("a", "GET", "/a", { baseUrl: "", docBaseUrl: "" })]);
  noBase.info.baseUrl = "";
  assert.throws(
    () => buildPlan(noBase),
    /could not build plan:\n- api\.base_url: base_url is empty; pass --base-url/,
  );
});
