import assert from "node:assert/strict";
import { parse } from "yaml";
import { type Doc, planDoc, SECRET } from "../_test_plans.ts";
import { toolOf } from "./_test_plan_fixtures.ts";
import { McpcastError } from "../errors.ts";
import { parsePlan } from "./schema.ts";
import type { McpcastPlan } from "./types.ts";
import { isPlanDocument, loadPlan, PLAN_HEADER, savePlan } from "./yaml.ts";

function refusal(text: string): string {
  try {
    loadPlan(text);
  } catch (error) {
    assert.ok(error instanceof McpcastError);
    return error.message;
  }
  assert.fail("the text should have been refused");
}

function smallPlan(): McpcastPlan {
  const doc = planDoc();
  const params = toolOf(doc, 0).params as Record<string, Doc>;
  params.petId.description = "The pet id.";
  params.verbose.default = false;
  toolOf(doc, 0).example = { petId: "123" };
  toolOf(doc, 0).tags = ["pets"];
  return parsePlan(doc);
}

Deno.test("savePlan writes the compact form: header, always-present keys, defaults omitted", () => {
  assert.equal(
    savePlan(smallPlan()),
    PLAN_HEADER + `version: 1
api:
  name: petstore
  base_url: https://api.example.com/v1
  auth: passthrough
profile: full
tools:
  - name: get_pet
    description: Fetch one pet by id.
    risk: read
    routes:
      - operation_id: getPet
        method: GET
        path: /pets/{petId}
        params:
          petId:
            location: path
            required: true
          verbose:
            location: query
    params:
      petId:
        description: The pet id.
        required: true
      verbose:
        json_schema:
          type: boolean
        default: false
    example:
      petId: "123"
    tags:
      - pets
  - name: delete_pet
    description: Delete a pet.
    risk: destructive
    routes:
      - operation_id: deletePet
        method: DELETE
        path: /pets/{petId}
        params:
          petId:
            location: path
            required: true
    params:
      petId:
        required: true
    requires_approval: true
dropped:
  - operation_id: legacyPets
    reason: deprecated in spec
`,
  );
});

Deno.test("the header is three comment lines of at most 100 characters naming the regenerate command", () => {
  const lines = PLAN_HEADER.trimEnd().split("\n");
  assert.equal(lines.length, 3);
  assert.ok(lines.every((line) => line.startsWith("# ") && line.length <= 100));
  assert.match(PLAN_HEADER, /source of truth/);
  assert.match(PLAN_HEADER, /agentry mcpcast --plan mcpcast\.plan\.yaml/);
});

Deno.test("an empty plan keeps tools and dropped as empty lists", () => {
  const text = savePlan(parsePlan({ api: { name: "pets", base_url: "https://api.example.com" } }));
  assert.ok(text.endsWith("auth: passthrough\nprofile: read-only\ntools: []\ndropped: []\n"));
});

Deno.test("loadPlan(savePlan(plan)) deep-equals plan, with every optional field set", () => {
  const doc = planDoc();
  doc.api = {
    name: "petstore",
    base_url: "https://api.example.com/v1",
    auth: "api-key",
    approval: "pending",
    description: "Pets: a store.\nSecond line with 'quotes' and \"double\" ones: yes",
    spec_source: "https://specs.example.com/petstore.yaml",
    credential_location: "query",
    credential_name: "api_key",
  };
  const tool = toolOf(doc, 0);
  tool.routes = [{
    operation_id: "getPet",
    method: "POST",
    path: "/pets/{petId}",
    params: {
      petId: { location: "path", required: true },
      body_name: { location: "body", wire_name: "name" },
    },
    body_encoding: "form",
    base_url: "http://127.0.0.1:8080/other",
  }];
  tool.risk = "write";
  tool.requires_approval = true;
  tool.params = {
    petId: {
      description: "A fairly long sentence. ".repeat(12),
      required: true,
      json_schema: { type: "integer", enum: [1, 2] },
    },
    body_name: { hidden: true, default: { nested: ["a", 1, null, true], "key: colon": "- dash" } },
  };
  tool.example = { petId: 1 };
  tool.tags = ["yes", "null", "123", "", " padded "];
  const plan = parsePlan(doc);
  const text = savePlan(plan);
  assert.deepEqual(loadPlan(text), plan);
  assert.ok(
    !text.includes("A fairly long sentence. ".repeat(5)),
    "a long description is folded near 100 columns",
  );
});

Deno.test("strings holding U+0085 (or U+2028/U+2029) are double-quoted with the character escaped", () => {
  const plan = smallPlan();
  plan.tools[0].description = "Fetch\u0085one\u2028pet";
  const text = savePlan(plan);
  assert.match(text, /description: "Fetch\\None\\Lpet"/);
  assert.ok(!/[\u0085\u2028\u2029]/.test(text));
  const raw = parse(text) as { tools: { description: string }[] };
  assert.equal(raw.tools[0].description, "Fetch\u0085one\u2028pet");
});

Deno.test("a document that looks like a spec is refused with a hint", () => {
  const message = refusal("openapi: 3.0.0\ninfo: {title: x}\npaths: {}\ntools: []\napi: {}\n");
  assert.match(message, /looks like an OpenAPI\/Swagger spec, not an mcpcast plan/);
  assert.match(message, /'paths', 'openapi'/);
  assert.match(message, /agentry mcpcast <spec>/);
  assert.match(refusal("swagger: '2.0'\n"), /'swagger'/);
});

Deno.test("isPlanDocument needs api and tools and none of paths, openapi, swagger", () => {
  assert.equal(isPlanDocument({ api: {}, tools: [] }), true);
  assert.equal(isPlanDocument({ api: {}, tools: [], paths: {} }), false);
  assert.equal(isPlanDocument({ api: {} }), false);
  assert.equal(isPlanDocument([]), false);
});

Deno.test("invalid YAML is refused with its place, not its text", () => {
  const message = refusal(`api: {name: pets}\napi: ${SECRET}\n`);
  assert.equal(message, "plan is not valid YAML: duplicate key at line 2, column 1");
  assert.match(refusal(`tools: [${SECRET}\n`), /^plan is not valid YAML: /);
});

Deno.test("an empty document or a non-mapping is refused", () => {
  assert.equal(refusal(""), "plan is empty");
  assert.equal(refusal("- a\n- b\n"), "plan must be a YAML mapping");
});

Deno.test("validation errors list loc and message only", () => {
  const message = refusal(
    `api:\n  name: pets\n  base_url: "https://api.example.com/${SECRET}?k=1"\ntools:\n  - name: Bad\n`,
  );
  assert.ok(message.startsWith("invalid plan:\n- api.base_url: "));
  assert.ok(message.includes("\n- tools[0].name: "));
  assert.ok(!message.includes(SECRET));
});

Deno.test("YAML non-finite numbers and unknown tags become strings; dates stay text (core schema)", () => {
  const plan = loadPlan(`api: {name: pets, base_url: "https://api.example.com"}
profile: full
tools:
  - name: list_pets
    description: List pets.
    risk: read
    routes: [{operation_id: listPets, method: GET, path: /pets, params: {limit: {location: query}}}]
    params:
      limit: {json_schema: {type: integer, maximum: .inf, example: 2026-01-15}, default: !!binary aGk=}
`);
  const limit = plan.tools[0].params.limit;
  assert.deepEqual(limit.json_schema, { type: "integer", maximum: "Infinity", example: "2026-01-15" });
  assert.equal(limit.default, "aGk=");
});

Deno.test("alias expansion is capped", () => {
  const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
  for (let i = 0; i < 8; i++) {
    lines.push(`${"bcdefghij"[i]}: &${"bcdefghij"[i]} [${`*${"abcdefghij"[i]}, `.repeat(10)}]`);
  }
  assert.match(refusal(`${lines.join("\n")}\n`), /too many aliases/);
});
