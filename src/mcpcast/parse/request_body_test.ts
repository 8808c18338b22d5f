import assert from "node:assert/strict";
import { defectOf } from "./_test_defect.ts";
import { RefResolver } from "./refs.ts";
import { flattenBody, preferredMedia, requestBodyParams } from "./request_body.ts";
import { successSchema } from "./success_schema.ts";

const DOCUMENT = {
  components: {
    schemas: {
      User: {
        type: "object",
        required: ["id", "name"],
        properties: {
          id: { type: "integer", readOnly: true },
          name: { type: "string", description: "Full name" },
          address: {
            type: "object",
            required: ["created", "city"],
            properties: { created: { type: "string", readOnly: true }, city: { type: "string" } },
          },
        },
      },
    },
    requestBodies: {
      UserBody: {
        required: true,
        content: { "application/json": { schema: { $ref: "#/components/schemas/User" } } },
      },
    },
  },
};
const resolver = new RefResolver(DOCUMENT);

Deno.test("media preference: application/json, then form, then any json media type", () => {
  assert.equal(
    preferredMedia({
      "application/vnd.api+json": {},
      "application/x-www-form-urlencoded": {},
      "Application/JSON; charset=utf-8": {},
    }),
    "Application/JSON; charset=utf-8",
  );
  assert.equal(
    preferredMedia({ "application/merge-patch+json": {}, "application/x-www-form-urlencoded": {} }),
    "application/x-www-form-urlencoded",
  );
  assert.equal(
    preferredMedia({ "text/plain": {}, "application/merge-patch+json": {} }),
    "application/merge-patch+json",
  );
  assert.equal(preferredMedia({ "text/plain": {} }), undefined);
});

Deno.test("an object body becomes one parameter per property, readOnly ones dropped at every depth", () => {
  const body = requestBodyParams({ $ref: "#/components/requestBodies/UserBody" }, resolver);
  assert.deepEqual(body, {
    encoding: "json",
    params: [
      {
        name: "name",
        wireName: "name",
        location: "body",
        required: true,
        schema: { type: "string", description: "Full name" },
        description: "Full name",
      },
      {
        name: "address",
        wireName: "address",
        location: "body",
        required: false,
        schema: { type: "object", required: ["city"], properties: { city: { type: "string" } } },
      },
    ],
  });
});

Deno.test("a form body is form-encoded", () => {
  const body = requestBodyParams({
    content: {
      "application/x-www-form-urlencoded": {
        schema: { type: "object", properties: { q: { type: "string" } } },
      },
    },
  }, resolver);
  assert.equal(body.encoding, "form");
  assert.deepEqual(body.params.map((p) => [p.name, p.location]), [["q", "body"]]);
});

Deno.test("only unsupported media types make the operation unsupported, listing them sorted", () => {
  const body = requestBodyParams({
    content: { "text/plain": {}, "application/xml": {}, "application/octet-stream": {} },
  }, resolver);
  assert.deepEqual(body, {
    params: [],
    encoding: "json",
    unsupported: "unsupported request body media type application/octet-stream, application/xml, text/plain",
  });
});

// slice C: multipart bodies and per-property `encoding`.
Deno.test("multipart/form-data is taken after JSON and form, with each property's encoding", () => {
  const body = requestBodyParams({
    content: {
      "text/plain": {},
      "multipart/form-data": {
        schema: {
          type: "object",
          properties: { meta: { type: "object" }, file: { type: "string", format: "binary" }, note: {} },
        },
        encoding: { meta: { contentType: "application/json", style: "form", explode: false } },
      },
    },
  }, resolver);
  assert.equal(body.encoding, "multipart");
  assert.deepEqual(
    body.params.map((p) => [p.name, p.contentType, p.style, p.explode]),
    [["meta", "application/json", undefined, undefined], [
      "file",
      "application/octet-stream",
      undefined,
      undefined,
    ], ["note", undefined, undefined, undefined]],
  );
  const form = requestBodyParams({
    content: {
      "application/x-www-form-urlencoded": {
        schema: { type: "object", properties: { metadata: { type: "object" }, tags: { type: "array" } } },
        encoding: { metadata: { style: "deepObject", explode: true }, tags: { explode: false } },
      },
    },
  }, resolver);
  assert.deepEqual(
    form.params.map((p) => [p.name, p.style, p.explode]),
    [["metadata", "deepObject", true], ["tags", undefined, false]],
  );
});

Deno.test("an object with empty properties and nothing else gives no parameters (empty GET bodies)", () => {
  assert.deepEqual(flattenBody({ type: "object", properties: {} }, { required: false }), []);
  assert.deepEqual(requestBodyParams({ content: {} }, resolver).params, []);
  for (const extra of [{ additionalProperties: true }, { allOf: [{ type: "object" }] }, { items: {} }]) {
    const params = flattenBody({ type: "object", properties: {}, ...extra }, { required: false });
    assert.deepEqual(params.map((p) => p.location), ["raw_body"], JSON.stringify(extra));
  }
});

Deno.test("a JSON body with no schema is a free-form body object, required when the body is", () => {
  for (const entry of [{}, { schema: {} }]) {
    const required = requestBodyParams({ required: true, content: { "application/json": entry } }, resolver);
    assert.deepEqual(required.params, [{
      name: "body",
      wireName: "body",
      location: "raw_body",
      required: true,
      schema: { type: "object" },
    }]);
    const optional = requestBodyParams({ content: { "application/json": entry } }, resolver);
    assert.deepEqual(optional.params.map((p) => [p.name, p.required]), [["body", false]]);
  }
});

Deno.test("an object body with oneOf/anyOf stays one body argument with the whole schema and description", () => {
  const schema = {
    type: "object",
    properties: { type: { type: "string" }, id: { type: "integer" }, owner: { type: "string" } },
    required: ["type"],
    oneOf: [{ required: ["id"] }, { required: ["owner"] }],
  };
  const body = requestBodyParams({
    required: true,
    description: "The item: its id, or its owner.",
    content: {
      "application/json": { schema, examples: { by_id: { value: { type: "Issue", id: 3 } } } },
    },
  }, resolver);
  assert.deepEqual(body, {
    encoding: "json",
    params: [{
      name: "body",
      wireName: "body",
      location: "raw_body",
      required: true,
      schema: { ...schema, example: { type: "Issue", id: 3 } },
      description: "The item: its id, or its owner.",
    }],
  });
  const anyOf = flattenBody({ properties: { a: {} }, anyOf: [{ required: ["a"] }] }, { required: false });
  assert.deepEqual(anyOf.map((p) => p.location), ["raw_body"]);
});

Deno.test("a flattened body's description is returned beside its parameters", () => {
  const body = requestBodyParams({
    description: "The new name.",
    content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } } },
  }, resolver);
  assert.equal(body.description, "The new name.");
  assert.deepEqual(body.params.map((p) => p.name), ["name"]);
});

Deno.test("any other schema becomes a single raw body parameter named body", () => {
  const body = requestBodyParams({
    description: "The pets",
    required: true,
    content: { "application/json": { schema: { type: "array", items: { type: "string" } } } },
  }, resolver);
  assert.deepEqual(body.params, [{
    name: "body",
    wireName: "body",
    location: "raw_body",
    required: true,
    schema: { type: "array", items: { type: "string" } },
    description: "The pets",
  }]);
  assert.deepEqual(flattenBody({ type: "object" }, { required: false }).map((p) => p.location), ["raw_body"]);
});

Deno.test("a malformed body is a defect naming where and what", () => {
  assert.equal(
    defectOf(() => requestBodyParams("json please", resolver)),
    "malformed requestBody: expected mapping, got string",
  );
  assert.equal(
    defectOf(() => requestBodyParams({ content: [] }, resolver)),
    "malformed requestBody.content: expected mapping, got list",
  );
  assert.equal(
    defectOf(() => requestBodyParams({ content: { "application/json": 3 } }, resolver)),
    "malformed requestBody.content['application/json']: expected mapping, got number",
  );
  assert.equal(
    defectOf(() => requestBodyParams({ content: { "application/json": { schema: "User" } } }, resolver)),
    "malformed requestBody.content['application/json'].schema: expected mapping, got string",
  );
  assert.equal(
    defectOf(() => requestBodyParams({ $ref: "#/components/requestBodies/Nope" }, resolver)),
    "dangling $ref '#/components/requestBodies/Nope' is not supported; bundle the spec into one document",
  );
  assert.equal(
    defectOf(() =>
      requestBodyParams(
        { content: { "application/json": { schema: { $ref: "common.yaml#/User" } } } },
        resolver,
      )
    ),
    "external $ref 'common.yaml#/User' is not supported; bundle the spec into one document",
  );
});

Deno.test("the success schema is the first 2xx or default response, codes sorted as strings", () => {
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  assert.deepEqual(
    successSchema({
      "404": json({ type: "string" }),
      "201": json({ type: "integer" }),
      "200": json({ type: "boolean" }),
    }, resolver),
    { type: "boolean" },
  );
  assert.deepEqual(successSchema({ default: json({ type: "number" }), "400": json({}) }, resolver), {
    type: "number",
  });
  assert.deepEqual(
    successSchema({ "200": { schema: { $ref: "#/components/schemas/User" } } }, resolver)?.required,
    ["id", "name"],
  );
  assert.equal(successSchema({ "204": { description: "none" } }, resolver), undefined);
  assert.equal(successSchema({ "200": json({ $ref: "#/missing" }) }, resolver), undefined);
  assert.equal(successSchema({ "404": json({}) }, resolver), undefined);
  assert.equal(successSchema("nope", resolver), undefined);
});
