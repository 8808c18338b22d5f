import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { cleanSchema } from "./schema_clean.ts";

Deno.test("OpenAPI nullable becomes JSON Schema null in types, enums and unions", () => {
  assert.deepEqual(cleanSchema({ type: "string", nullable: true }), { type: ["string", "null"] });
  assert.deepEqual(cleanSchema({ enum: ["a"], "x-nullable": true }), { enum: ["a", null] });
  assert.deepEqual(cleanSchema({ oneOf: [{ type: "string" }], nullable: true }), {
    oneOf: [{ type: "string" }, { type: "null" }],
  });
  assert.deepEqual(cleanSchema({ allOf: [{ type: "object" }], nullable: true }), {
    anyOf: [{ allOf: [{ type: "object" }] }, { type: "null" }],
  });
});

Deno.test("draft-4 exclusive bounds, examples, vendor keys and references are rewritten or dropped", () => {
  assert.deepEqual(
    cleanSchema({
      type: "number",
      minimum: 1,
      exclusiveMinimum: true,
      maximum: 9,
      exclusiveMaximum: false,
      example: 3,
      "x-internal": true,
      xml: { name: "n" },
      $ref: "#/components/schemas/N",
      default: { $ref: "#/x" },
    }),
    { type: "number", exclusiveMinimum: 1, maximum: 9, examples: [3] },
  );
});

Deno.test("readOnly properties leave the schema and its required list; long nested descriptions are cut", () => {
  const cleaned = cleanSchema({
    type: "object",
    required: ["id", "name"],
    properties: {
      id: { type: "integer", readOnly: true },
      name: { type: "string", description: "n".repeat(700) },
    },
  });
  assert.deepEqual(Object.keys(cleaned.properties as object), ["name"]);
  assert.deepEqual(cleaned.required, ["name"]);
  assert.equal((cleaned.properties as Record<string, { description: string }>).name.description.length, 601);
});

Deno.test("keywords a 2020-12 validator refuses are dropped, so every cleaned schema compiles", () => {
  const awkward = {
    type: "object",
    properties: {
      upload: { type: "file" },
      flag: { type: "boolean", required: true },
      code: { type: "string", pattern: "[\\w-]+" },
      pair: { type: "array", items: [{ type: "string" }, { type: "integer" }] },
      size: { type: "integer", minimum: "1", maxLength: -1, multipleOf: 0 },
      empty: { anyOf: [], enum: [] },
    },
  };
  const cleaned = cleanSchema(awkward);
  const ajv = new Ajv2020({ strict: false, logger: false });
  assert.doesNotThrow(() => ajv.compile(cleaned));
  const properties = cleaned.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(properties.upload, {});
  assert.deepEqual(properties.pair.prefixItems, [{ type: "string" }, { type: "integer" }]);
  assert.deepEqual(properties.size, { type: "integer" });
});

Deno.test("examples that do not fit their own schema are dropped, at every depth", () => {
  assert.deepEqual(
    cleanSchema({ type: "string", format: "uuid", example: "not-a-uuid" }),
    { type: "string", format: "uuid" },
  );
  assert.deepEqual(cleanSchema({ type: "string", example: null }), { type: "string" });
  assert.deepEqual(cleanSchema({ type: "string", nullable: true, example: null }), {
    type: ["string", "null"],
    examples: [null],
  });
  assert.deepEqual(cleanSchema({ type: "integer", examples: [4.5, 4] }), { type: "integer", examples: [4] });
  assert.deepEqual(
    cleanSchema({
      type: "object",
      properties: { at: { type: "string", format: "date-time", example: "yesterday" } },
      example: { at: "2026-02-30T00:00:00Z" },
    }),
    { type: "object", properties: { at: { type: "string", format: "date-time" } } },
  );
});
