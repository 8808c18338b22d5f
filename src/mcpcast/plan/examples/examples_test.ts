import assert from "node:assert/strict";
import { exampleMismatch, exampleValue, makeExample } from "./examples.ts";
import type { ParamPlan } from "../types.ts";
import type { JsonSchema } from "../../types.ts";

function param(schema: JsonSchema, init: Partial<ParamPlan> = {}): ParamPlan {
  return { description: "", json_schema: schema, required: true, hidden: false, ...init };
}

Deno.test("the spec's example, then default, then first examples entry is used when it fits", () => {
  assert.equal(exampleValue({ type: "string", example: "a", default: "b", examples: ["c"] }), "a");
  assert.equal(exampleValue({ type: "string", default: "b", examples: ["c"] }), "b");
  assert.equal(exampleValue({ type: "string", examples: ["c"] }), "c");
  assert.equal(exampleValue({ type: "string", example: ["not a string"], default: "b" }), "b");
  assert.deepEqual(exampleValue({ type: "object", example: { a: 1 } }), { a: 1 });
});

Deno.test("obvious type slips are coerced: number/bool on a string, numeric string on a number", () => {
  assert.equal(exampleValue({ type: "string", example: 2019 }), "2019");
  assert.equal(exampleValue({ type: "string", example: true }), "true");
  assert.equal(exampleValue({ type: "integer", example: " 42 " }), 42);
  assert.equal(exampleValue({ type: "number", example: "2.5" }), 2.5);
  assert.equal(exampleValue({ type: "integer", example: 3.0 }), 3);
  assert.equal(exampleValue({ type: "integer", example: "4.5", minimum: 7 }), 7);
});

Deno.test("non-finite numbers, enum violations and booleans for numbers are unfit", () => {
  assert.equal(exampleValue({ type: "number", example: Infinity }), 1);
  assert.equal(exampleValue({ type: "number", example: "NaN" }), 1);
  assert.equal(exampleValue({ type: "string", enum: ["a", "b"], example: "z" }), "a");
  assert.equal(exampleValue({ type: "integer", example: true }), 1);
});

Deno.test("without a usable example: enum, then combinators, then type", () => {
  assert.equal(exampleValue({ enum: ["available", "sold"] }), "available");
  assert.equal(exampleValue({ oneOf: [{ type: "integer" }, { type: "string" }] }), 1);
  assert.equal(exampleValue({ anyOf: [{ type: "boolean" }] }), true);
  assert.deepEqual(exampleValue({ allOf: [{ properties: { a: { type: "integer" } } }] }), { a: 1 });
  assert.equal(exampleValue({ type: "integer", minimum: 10 }), 10);
  assert.equal(exampleValue({ type: "integer", minimum: 0.5 }), 1);
  assert.equal(exampleValue({ type: "integer", minimum: 0, exclusiveMinimum: true }), 1);
  assert.equal(exampleValue({ type: "integer", exclusiveMinimum: 4 }), 5);
  assert.equal(exampleValue({ type: "number" }), 1);
  assert.equal(exampleValue({ type: "number", minimum: 2.5 }), 2.5);
  assert.equal(exampleValue({ type: "boolean" }), true);
  assert.equal(exampleValue({ type: ["null", "integer"] }), 1);
});

Deno.test("arrays hold one example item; objects an example per property", () => {
  assert.deepEqual(exampleValue({ type: "array", items: { type: "string", format: "email" } }), [
    "ada@example.com",
  ]);
  assert.deepEqual(exampleValue({ type: "array" }), []);
  assert.deepEqual(
    exampleValue({
      type: "object",
      properties: { id: { type: "string" }, name: {}, tags: { type: "array" } },
    }),
    { id: "123", name: "example", tags: [] },
  );
  assert.deepEqual(exampleValue({ type: "object" }), {});
});

Deno.test("string formats and parameter names pick the text", () => {
  assert.equal(exampleValue({ type: "string", format: "date-time" }), "2026-01-15T09:30:00Z");
  assert.equal(exampleValue({ type: "string", format: "date" }), "2026-01-15");
  assert.equal(exampleValue({ type: "string", format: "email" }), "ada@example.com");
  assert.equal(exampleValue({ type: "string", format: "uri" }), "https://example.com");
  assert.equal(exampleValue({ type: "string", format: "url" }), "https://example.com");
  assert.equal(exampleValue({ type: "string", format: "uuid" }), "123e4567-e89b-12d3-a456-426614174000");
  assert.equal(exampleValue({ type: "string" }, "petId"), "123");
  assert.equal(exampleValue({ type: "string" }, "contactEmail"), "ada@example.com");
  assert.equal(exampleValue({ type: "string" }, "displayName"), "example");
  assert.equal(exampleValue({ type: "string" }, "status"), "string");
});

Deno.test("deeply nested schemas stop at empty containers", () => {
  let schema: JsonSchema = { type: "string" };
  for (let i = 0; i < 20; i++) schema = { type: "object", properties: { inner: schema } };
  let value = exampleValue(schema) as Record<string, unknown>;
  let depth = 0;
  while (Object.keys(value).length > 0) {
    value = value.inner as Record<string, unknown>;
    depth++;
  }
  assert.equal(depth, 8);
});

Deno.test("a tool example covers every required visible parameter", () => {
  const example = makeExample({
    petId: param({ type: "integer" }),
    status: param({ enum: ["sold"] }),
    limit: param({ type: "integer" }, { required: false }),
    tenant: param({ type: "string" }, { hidden: true, default: "t" }),
  });
  assert.deepEqual(example, { petId: 1, status: "sold" });
});

Deno.test("with nothing required the preferred names are used, else no example", () => {
  const params = {
    q: param({ type: "string" }, { required: false }),
    h: param({}, { required: false, hidden: true }),
  };
  assert.deepEqual(makeExample(params, ["q", "h", "missing"]), { q: "string" });
  assert.equal(makeExample(params), null);
});

Deno.test("exampleMismatch: type, enum, unknown keys and the first array item", () => {
  assert.equal(exampleMismatch(true, { type: "integer" }), "is a boolean but the API declares integer");
  assert.equal(exampleMismatch(1.5, { type: "integer" }), "is a number but the API declares integer");
  assert.equal(exampleMismatch("x", { enum: ["a"] }), "is not one of the declared values");
  assert.equal(
    exampleMismatch({ sku: "a", qty: 1 }, { type: "object", properties: { sku: {} } }),
    "uses fields 'qty' the API does not declare",
  );
  assert.equal(
    exampleMismatch({ qty: 1 }, { properties: { sku: {} }, additionalProperties: true }),
    undefined,
  );
  assert.equal(
    exampleMismatch([{ qty: 1 }], { type: "array", items: { properties: { sku: {} } } }),
    "has a first item that uses fields 'qty' the API does not declare",
  );
  assert.equal(exampleMismatch(null, { type: "string", nullable: true }), undefined);
  assert.equal(exampleMismatch(3, { type: "number" }), undefined);
  assert.equal(exampleMismatch("any", {}), undefined);
});

Deno.test("made-up strings follow the schema's pattern and lengths; arrays reach minItems", () => {
  assert.equal(exampleValue({ type: "string", pattern: "^\\d+\\.\\d+\\.\\d+$" }, "version"), "1.1.1");
  assert.equal(
    exampleValue(
      { type: "string", pattern: "^sha256:[a-f0-9]{64}$", minLength: 71, maxLength: 71 },
      "digest",
    ),
    `sha256:${"a".repeat(64)}`,
  );
  assert.equal(exampleValue({ type: "string", pattern: "^\\d+$" }, "petId"), "123", "a fitting text is kept");
  assert.equal(exampleValue({ type: "string", minLength: 10 }, "name"), "examplexxx");
  assert.equal(exampleValue({ type: "string", maxLength: 3 }, "label"), "str");
  assert.deepEqual(exampleValue({ type: "array", minItems: 2, items: { type: "integer" } }, "ids"), [1, 1]);
  assert.deepEqual(
    exampleValue({ type: "array", minItems: 2, uniqueItems: true, items: { type: "integer" } }, "ids"),
    [1],
    "unique items are not repeated",
  );
  assert.equal(
    exampleValue({ type: "string", pattern: "^(?=x)y" }, "odd"),
    "string",
    "a pattern it cannot write leaves the made-up text",
  );
});

Deno.test("the spec's own example is passed over when it breaks the schema's bounds", () => {
  const schema = { type: "string", pattern: "^sha256:[a-f0-9]{64}$", example: "sha256:0ecb" };
  assert.equal(exampleValue(schema, "digest"), `sha256:${"a".repeat(64)}`);
  assert.equal(exampleValue({ type: "integer", minimum: 5, example: 2 }, "limit"), 5);
  assert.equal(exampleValue({ type: "integer", minimum: 5, example: 7 }, "limit"), 7);
});
