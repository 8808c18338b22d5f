import assert from "node:assert/strict";
import { openapi } from "../_test_parse.ts";
import { McpcastError } from "../errors.ts";
import { extractOperations, sanitizeOperationId } from "./operations.ts";

function throwsMcpcast(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof McpcastError, String(error));
    assert.match(error.message, pattern);
    return true;
  });
}

Deno.test("operations come in path order, methods ordered get, head, post, put, patch, delete, options, trace", () => {
  const ops = {
    trace: {},
    options: {},
    delete: {},
    patch: {},
    put: {},
    post: {},
    head: {},
    get: {},
    parameters: [],
    summary: "not an operation",
  };
  const operations = extractOperations(openapi({ "/b": ops, "/a": { get: {} } }));
  assert.deepEqual(
    operations.map((o) => `${o.method} ${o.path}`),
    ["GET /b", "HEAD /b", "POST /b", "PUT /b", "PATCH /b", "DELETE /b", "OPTIONS /b", "TRACE /b", "GET /a"],
  );
});

Deno.test("operation ids are sanitised, derived from method and path when missing, and made unique", () => {
  assert.equal(sanitizeOperationId("get-pet.by id!", "get", "/x"), "get_pet_by_id");
  assert.equal(sanitizeOperationId(undefined, "get", "/pets/{petId}/photos"), "get_pets_petId_photos");
  assert.equal(sanitizeOperationId(42, "get", "/x"), "42");
  assert.equal(sanitizeOperationId("___", "get", "/x"), "operation");
  assert.equal(sanitizeOperationId("  ", "post", "/"), "post");
  assert.equal(sanitizeOperationId({ id: 1 }, "put", "/a"), "put_a");
  const operations = extractOperations(openapi({
    "/a": { get: { operationId: "list" }, post: { operationId: "list" }, put: { operationId: "list_2" } },
    "/b": { get: { operationId: "list" } },
  }));
  assert.deepEqual(operations.map((o) => o.operationId), ["list", "list_2", "list_2_2", "list_3"]);
});

Deno.test("no paths is an error, and a spec of only webhooks gets its own message", () => {
  throwsMcpcast(() => extractOperations({ openapi: "3.1.0" }), /^spec has no paths/);
  throwsMcpcast(() => extractOperations(openapi({})), /^spec has no paths/);
  throwsMcpcast(
    () => extractOperations({ openapi: "3.1.0", webhooks: { newPet: { post: {} } } }),
    /^spec has only webhooks and no paths/,
  );
});

Deno.test("a path item $ref is followed, and one that does not resolve names the path", () => {
  const document = openapi(
    { "/pets": { $ref: "#/components/pathItems/Pets" } },
    { components: { pathItems: { Pets: { get: { operationId: "listPets" } } } } },
  );
  assert.deepEqual(extractOperations(document).map((o) => o.operationId), ["listPets"]);
  throwsMcpcast(
    () => extractOperations(openapi({ "/pets": { $ref: "#/components/pathItems/Nope" } })),
    /^path '\/pets': dangling \$ref '#\/components\/pathItems\/Nope' is not supported/,
  );
});

Deno.test("operation and path servers override the document's unless the caller forced a base URL", () => {
  const document = openapi({
    "/a": {
      servers: [{ url: "https://path.example" }],
      get: {},
      post: { servers: [{ url: "https://op.example/v2/" }] },
    },
    "/b": { get: {} },
  }, { servers: [{ url: "https://doc.example" }] });
  assert.deepEqual(
    extractOperations(document).map((o) => [o.baseUrl, o.docBaseUrl]),
    [["https://path.example", "https://doc.example"], ["https://op.example/v2", "https://doc.example"], [
      "https://doc.example",
      "https://doc.example",
    ]],
  );
  const forced = extractOperations(document, { baseUrl: "http://localhost:9000/" });
  assert.deepEqual(
    forced.map((o) => [o.baseUrl, o.docBaseUrl]),
    Array(3).fill(["http://localhost:9000", "http://localhost:9000"]),
  );
});

Deno.test("summary and description are trimmed, tags keep scalar items, deprecated must be true", () => {
  const [operation] = extractOperations(openapi({
    "/a": {
      get: {
        summary: "  Get a \n",
        description: "\n Long text. ",
        tags: ["pets", 3, { no: 1 }, null],
        deprecated: "yes",
      },
    },
  }));
  assert.equal(operation.summary, "Get a");
  assert.equal(operation.description, "Long text.");
  assert.deepEqual(operation.tags, ["pets", "3"]);
  assert.equal(operation.deprecated, false);
  const [other] = extractOperations(
    openapi({ "/a": { get: { tags: "pets", deprecated: true, summary: " " } } }),
  );
  assert.deepEqual([other.tags, other.deprecated, "summary" in other], [[], true, false]);
});

Deno.test("operation security overrides the document's, an empty list meaning none", () => {
  const document = openapi({
    "/a": { get: {}, post: { security: [{ oauth: ["pets:write"] }] }, delete: { security: [] } },
  }, {
    security: [{ key: [] }],
    components: {
      securitySchemes: {
        key: { type: "apiKey", in: "header", name: "X-Key" },
        oauth: { type: "oauth2", flows: {} },
      },
    },
  });
  const [get, post, del] = extractOperations(document);
  assert.deepEqual([get.securityScheme?.id, get.credentialSlot, get.scopes], ["key", {
    location: "header",
    name: "X-Key",
  }, ["key"]]);
  assert.deepEqual([post.securityScheme?.id, post.scopes], ["oauth", ["pets:write"]]);
  assert.deepEqual([del.securityScheme, del.credentialSlot, del.scopes], [undefined, undefined, []]);
});

Deno.test("a defect inside one operation marks it unsupported while the rest survive", () => {
  const operations = extractOperations(openapi({
    "/a": {
      get: { parameters: { q: {} } },
      post: { requestBody: { content: { "application/json": { schema: "Pet" } } } },
      put: {
        parameters: [{
          name: "x",
          in: "query",
          schema: { $ref: "https://schemas.example/x.json?key=secret" },
        }],
      },
      patch: "nonsense",
      delete: { parameters: [{ name: "id", in: "query" }] },
    },
  }));
  assert.deepEqual(operations.map((o) => [o.operationId, o.unsupportedBody]), [
    ["get_a", "malformed parameters: expected list, got mapping"],
    ["post_a", "malformed requestBody.content['application/json'].schema: expected mapping, got string"],
    [
      "put_a",
      "external $ref 'https://schemas.example/x.json' is not supported; bundle the spec into one document",
    ],
    ["patch_a", "malformed operation: expected mapping, got string"],
    ["delete_a", undefined],
  ]);
  assert.deepEqual(operations[4].params.map((p) => p.name), ["id"]);
});

Deno.test("a body property that collides with a path parameter is exposed as body_<name>", () => {
  const [operation] = extractOperations(openapi({
    "/users/{username}": {
      parameters: [{ name: "username", in: "path" }],
      put: {
        parameters: [{ name: "username", in: "query" }, { name: "X-Request-Id", in: "header" }],
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { username: { type: "string" }, age: { type: "integer" } },
              },
            },
          },
        },
      },
    },
  }));
  assert.deepEqual(operation.params.map((p) => [p.location, p.name, p.wireName, p.required]), [
    ["path", "username", "username", true],
    ["query", "query_username", "username", false],
    ["body", "body_username", "username", false],
    ["body", "age", "age", false],
    ["header", "X-Request-Id", "X-Request-Id", false],
  ]);
  assert.equal(operation.bodyEncoding, "json");
});

Deno.test("a Swagger 2 operation flattens its body, form-encodes formData and sends file uploads as multipart", () => {
  const document = {
    swagger: "2.0",
    host: "api.example.com",
    paths: {
      "/pets": {
        post: {
          parameters: [{
            name: "pet",
            in: "body",
            schema: { type: "object", properties: { name: { type: "string" } } },
          }],
        },
      },
      "/pets/{id}": {
        post: {
          parameters: [{ name: "id", in: "path", type: "integer" }, {
            name: "name",
            in: "formData",
            type: "string",
          }],
        },
        put: { parameters: [{ name: "file", in: "formData", type: "file" }] },
      },
    },
  };
  const [create, update, upload] = extractOperations(document);
  assert.deepEqual(create.params.map((p) => [p.name, p.location]), [["name", "body"]]);
  assert.equal(update.bodyEncoding, "form");
  assert.deepEqual(update.params.map((p) => [p.name, p.location, p.schema]), [["id", "path", {
    type: "integer",
  }], ["name", "body", {
    type: "string",
  }]]);
  // slice C: a file parameter makes the body multipart, the file a binary string part.
  assert.equal(upload.unsupportedBody, undefined);
  assert.equal(upload.bodyEncoding, "multipart");
  assert.deepEqual(upload.params.map((p) => [p.name, p.schema, p.contentType]), [[
    "file",
    { type: "string", format: "binary" },
    "application/octet-stream",
  ]]);
  assert.equal(create.baseUrl, "https://api.example.com");
});

Deno.test("a flattened body's description is kept in the operation's description", () => {
  const body = (description: string) => ({
    description,
    content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } } },
  });
  const [described, bare] = extractOperations(openapi({
    "/a": { post: { summary: "Rename", description: "Renames a.", requestBody: body("The new name.") } },
    "/b": { post: { summary: "Rename", requestBody: body("The new name.") } },
  }));
  assert.equal(described.description, "Renames a.\n\nRequest body: The new name.");
  assert.equal(bare.description, "Request body: The new name.");
});
