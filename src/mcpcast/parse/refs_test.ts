import assert from "node:assert/strict";
import { refProblemMessage, RefResolver, resolvePointer } from "./refs.ts";

const DOCUMENT = {
  components: {
    schemas: {
      Pet: {
        type: "object",
        properties: { name: { type: "string" }, category: { $ref: "#/components/schemas/Category" } },
      },
      Category: {
        type: "object",
        properties: { id: { type: "integer" }, parent: { $ref: "#/components/schemas/Category" } },
      },
      Node: {
        type: "object",
        properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
      },
      "a/b~c": { type: "string" },
      Alias: { $ref: "#/components/schemas/Pet" },
    },
  },
  list: [{ type: "boolean" }],
};

Deno.test("a JSON pointer decodes ~1 and ~0 and indexes lists", () => {
  assert.deepEqual(resolvePointer(DOCUMENT, "#/components/schemas/a~1b~0c"), { type: "string" });
  assert.deepEqual(resolvePointer(DOCUMENT, "#/list/0"), { type: "boolean" });
  assert.equal(resolvePointer(DOCUMENT, "#/list/01"), undefined);
  assert.equal(resolvePointer(DOCUMENT, "#/list/1"), undefined);
  assert.equal(resolvePointer(DOCUMENT, "#/nope"), undefined);
  assert.equal(resolvePointer(DOCUMENT, "other.yaml#/a"), undefined);
  assert.equal(resolvePointer(DOCUMENT, "#"), DOCUMENT);
});

Deno.test("after two reference hops a further reference becomes an object: Pet keeps its Category", () => {
  const { value, problems } = new RefResolver(DOCUMENT).resolve({ $ref: "#/components/schemas/Pet" });
  assert.deepEqual(problems, []);
  assert.deepEqual(value, {
    type: "object",
    properties: {
      name: { type: "string" },
      category: { type: "object", properties: { id: { type: "integer" }, parent: { type: "object" } } },
    },
  });
});

Deno.test("circular schemas terminate", () => {
  const { value } = new RefResolver(DOCUMENT).resolve({ $ref: "#/components/schemas/Node" });
  assert.deepEqual(value, {
    type: "object",
    properties: {
      children: {
        type: "array",
        items: {
          type: "object",
          properties: { children: { type: "array", items: { type: "object" } } },
        },
      },
    },
  });
});

Deno.test("keys beside a $ref override the target's keys", () => {
  const { value } = new RefResolver(DOCUMENT).resolve({
    $ref: "#/components/schemas/a~1b~0c",
    description: "overridden",
    type: "integer",
  });
  assert.deepEqual(value, { type: "integer", description: "overridden" });
});

Deno.test("only a string $ref is a reference, and a property named $ref is data", () => {
  const { value } = new RefResolver(DOCUMENT).resolve({
    type: "object",
    properties: { $ref: { type: "string" }, other: { $ref: "#/components/schemas/a~1b~0c" } },
    "x-meta": { $ref: { not: "a reference" } },
  });
  assert.deepEqual(value, {
    type: "object",
    properties: { $ref: { type: "string" }, other: { type: "string" } },
    "x-meta": { $ref: { not: "a reference" } },
  });
});

Deno.test("data keys are copied untouched, references inside them included", () => {
  const example = { $ref: "#/components/schemas/Pet", nested: [{ $ref: "#/x" }] };
  const { value, problems } = new RefResolver(DOCUMENT).resolve({
    type: "object",
    example,
    examples: [example],
    default: { $ref: "#/nope" },
    enum: [{ $ref: "#/nope" }],
    const: { $ref: "#/nope" },
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(value, {
    type: "object",
    example,
    examples: [example],
    default: { $ref: "#/nope" },
    enum: [{ $ref: "#/nope" }],
    const: { $ref: "#/nope" },
  });
  assert.notEqual((value as { example: unknown }).example, example);
});

Deno.test("external and dangling references are reported, not thrown", () => {
  const { value, problems } = new RefResolver(DOCUMENT).resolve({
    type: "object",
    properties: {
      a: { $ref: "https://bob:pw@schemas.example/pet.json?token=t#/Pet" },
      b: { $ref: "#/components/schemas/Missing", description: "kept" },
    },
  });
  assert.deepEqual(problems, [
    { kind: "external", ref: "https://bob:pw@schemas.example/pet.json?token=t#/Pet" },
    { kind: "dangling", ref: "#/components/schemas/Missing" },
  ]);
  assert.deepEqual(value, { type: "object", properties: { a: {}, b: { description: "kept" } } });
  assert.equal(
    refProblemMessage(problems[0]),
    "external $ref 'https://schemas.example/pet.json' is not supported; bundle the spec into one document",
  );
  assert.equal(
    refProblemMessage(problems[1]),
    "dangling $ref '#/components/schemas/Missing' is not supported; bundle the spec into one document",
  );
});

Deno.test("results are fresh objects that share nothing with the document", () => {
  const resolver = new RefResolver(DOCUMENT);
  const first = resolver.resolve({ $ref: "#/components/schemas/Pet" }).value as Record<string, unknown>;
  (first.properties as Record<string, unknown>).name = "changed";
  const second = resolver.resolve({ $ref: "#/components/schemas/Alias" }).value as Record<string, unknown>;
  assert.deepEqual((second.properties as Record<string, unknown>).name, { type: "string" });
  assert.deepEqual(DOCUMENT.components.schemas.Pet.properties.name, { type: "string" });
});

Deno.test("following a structural reference merges siblings and reports a dangling one", () => {
  const document = {
    components: {
      parameters: { Limit: { name: "limit", in: "query" }, Again: { $ref: "#/components/parameters/Limit" } },
    },
  };
  const resolver = new RefResolver(document);
  assert.deepEqual(resolver.follow({ $ref: "#/components/parameters/Again", description: "d" }).value, {
    name: "limit",
    in: "query",
    description: "d",
  });
  assert.deepEqual(resolver.follow({ $ref: "#/components/parameters/Nope" }).problem, {
    kind: "dangling",
    ref: "#/components/parameters/Nope",
  });
  const loop = { a: { $ref: "#/a" } };
  assert.deepEqual(new RefResolver(loop).follow(loop.a).value, { type: "object" });
});
