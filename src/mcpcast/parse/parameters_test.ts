import assert from "node:assert/strict";
import { defectOf } from "./_test_defect.ts";
import { arrangeParams, collectParameters } from "./parameters.ts";
import { RefResolver } from "./refs.ts";
import type { ParamSpec } from "../types.ts";

const DOCUMENT = {
  components: {
    parameters: {
      Limit: { name: "limit", in: "query", description: "Page size", schema: { type: "integer" } },
    },
    schemas: { Id: { type: "string", format: "uuid", description: "An id" } },
  },
};
const resolver = new RefResolver(DOCUMENT);

function param(location: ParamSpec["location"], name: string): ParamSpec {
  return { name, wireName: name, location, required: false, schema: {} };
}

Deno.test("operation parameters override path-level ones with the same name and location", () => {
  const { params } = collectParameters(
    [{ name: "id", in: "path", schema: { type: "integer" } }, { name: "id", in: "query" }, {
      $ref: "#/components/parameters/Limit",
    }],
    [{ name: "id", in: "path", schema: { $ref: "#/components/schemas/Id" } }, {
      name: "X-Trace",
      in: "header",
    }],
    resolver,
  );
  assert.deepEqual(params, [
    {
      name: "id",
      wireName: "id",
      location: "path",
      required: true,
      schema: { type: "string", format: "uuid", description: "An id" },
      description: "An id",
    },
    { name: "id", wireName: "id", location: "query", required: false, schema: { type: "string" } },
    {
      name: "limit",
      wireName: "limit",
      location: "query",
      required: false,
      schema: { type: "integer" },
      description: "Page size",
    },
    { name: "X-Trace", wireName: "X-Trace", location: "header", required: false, schema: { type: "string" } },
  ]);
});

Deno.test("a parameter schema comes from schema, else JSON content, else Swagger 2 keywords, else string", () => {
  const { params } = collectParameters(undefined, [
    {
      name: "filter",
      in: "query",
      content: { "text/plain": {}, "application/json": { schema: { type: "object" } } },
    },
    {
      name: "size",
      in: "query",
      type: "integer",
      format: "int32",
      minimum: 1,
      "x-nullable": true,
      collectionFormat: "csv",
    },
    { name: "tags", in: "query", type: "array", items: { type: "string" }, required: true },
    { name: "free", in: "cookie" },
  ], resolver);
  assert.deepEqual(params.map((p) => [p.name, p.location, p.required, p.schema]), [
    ["filter", "query", false, { type: "object" }],
    ["size", "query", false, { type: "integer", format: "int32", minimum: 1, "x-nullable": true }],
    ["tags", "query", true, { type: "array", items: { type: "string" } }],
    ["free", "cookie", false, { type: "string" }],
  ]);
});

Deno.test("a parameter example is copied into a schema that has none", () => {
  const { params } = collectParameters(undefined, [
    { name: "a", in: "query", example: { deep: [1] }, schema: { type: "object" } },
    { name: "b", in: "query", example: "ignored", schema: { type: "string", example: "kept" } },
  ], resolver);
  assert.deepEqual(params[0].schema, { type: "object", example: { deep: [1] } });
  assert.deepEqual(params[1].schema, { type: "string", example: "kept" });
});

Deno.test("a Swagger 2 body parameter is flattened into body properties", () => {
  const object = collectParameters(undefined, [{
    name: "pet",
    in: "body",
    required: true,
    schema: {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, id: { type: "integer", readOnly: true } },
    },
  }], resolver);
  assert.deepEqual(object, {
    params: [{
      name: "name",
      wireName: "name",
      location: "body",
      required: true,
      schema: { type: "string" },
    }],
    encoding: "json",
  });
  const list = collectParameters(undefined, [{
    name: "pets",
    in: "body",
    required: true,
    description: "Pets",
    schema: { type: "array" },
  }], resolver);
  assert.deepEqual(list.params, [{
    name: "body",
    wireName: "body",
    location: "raw_body",
    required: true,
    schema: { type: "array" },
    description: "Pets",
  }]);
});

Deno.test("formData parameters become form-encoded body parameters, and a file upload multipart", () => {
  const form = collectParameters(undefined, [{
    name: "name",
    in: "formData",
    type: "string",
    required: true,
  }], resolver);
  assert.equal(form.encoding, "form");
  assert.deepEqual(form.params, [{
    name: "name",
    wireName: "name",
    location: "body",
    required: true,
    schema: { type: "string" },
  }]);
  const upload = collectParameters(undefined, [{ name: "meta", in: "formData", type: "string" }, {
    name: "file",
    in: "formData",
    type: "file",
  }], resolver);
  // slice C: a file parameter, or `consumes` offering only multipart, makes the body multipart.
  assert.equal(upload.encoding, "multipart");
  assert.deepEqual(upload.params.map((p) => [p.name, p.schema, p.contentType]), [
    ["meta", { type: "string" }, undefined],
    ["file", { type: "string", format: "binary" }, "application/octet-stream"],
  ]);
  const consumes = (list: string[]) =>
    collectParameters(undefined, [{ name: "a", in: "formData", type: "string" }], resolver, {
      consumes: list,
    })
      .encoding;
  assert.equal(consumes(["multipart/form-data"]), "multipart");
  assert.equal(consumes(["multipart/form-data", "application/x-www-form-urlencoded"]), "form");
  assert.equal(consumes([]), "form");
});

Deno.test("malformed parameter lists and unresolvable references are defects", () => {
  assert.equal(
    defectOf(() => collectParameters({ id: {} }, undefined, resolver)),
    "malformed path parameters: expected list, got mapping",
  );
  assert.equal(
    defectOf(() => collectParameters(undefined, ["id"], resolver)),
    "malformed parameters[0]: expected mapping, got string",
  );
  assert.equal(
    defectOf(() => collectParameters(undefined, [{ in: "query" }], resolver)),
    "malformed parameters[0].name: expected string, got missing",
  );
  assert.equal(
    defectOf(() => collectParameters(undefined, [{ name: "q", in: "query", schema: "string" }], resolver)),
    "malformed parameter 'q' schema: expected mapping, got string",
  );
  assert.equal(
    defectOf(() => collectParameters(undefined, [{ $ref: "#/components/parameters/Nope" }], resolver)),
    "dangling $ref '#/components/parameters/Nope' is not supported; bundle the spec into one document",
  );
  assert.equal(
    defectOf(() =>
      collectParameters(
        undefined,
        [{ name: "q", in: "query", schema: { $ref: "./common.yaml#/Q" } }],
        resolver,
      )
    ),
    "external $ref './common.yaml#/Q' is not supported; bundle the spec into one document",
  );
});

Deno.test("name collisions keep path > query > body > header > cookie and rename later ones with their location", () => {
  const arranged = arrangeParams([
    param("body", "id"),
    param("header", "id"),
    param("query", "id"),
    param("path", "id"),
    param("raw_body", "body"),
    param("query", "body"),
    param("body", "query_id"),
    param("cookie", "id"),
  ]);
  assert.deepEqual(arranged.map((p) => [p.location, p.name, p.wireName]), [
    ["path", "id", "id"],
    ["query", "query_id", "id"],
    ["query", "body", "body"],
    ["body", "body_id", "id"],
    ["raw_body", "body_body", "body"],
    ["body", "body_query_id", "query_id"],
    ["header", "header_id", "id"],
    ["cookie", "cookie_id", "id"],
  ]);
});

Deno.test("a rename that is taken too is numbered", () => {
  const arranged = arrangeParams([param("path", "name"), param("query", "body_name"), param("body", "name")]);
  assert.deepEqual(arranged.map((p) => p.name), ["name", "body_name", "body_name_2"]);
});
