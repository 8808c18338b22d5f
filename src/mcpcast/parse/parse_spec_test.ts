import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { envOf, localServer, openapi } from "../_test_parse.ts";
import { McpcastError } from "../errors.ts";
import { parseSpec } from "./parse_spec.ts";

const SPECS = fileURLToPath(new URL("../../../tests/fixtures/specs/", import.meta.url));

Deno.test("the Swagger 2.0 petstore (YAML) parses into 20 operations, the file upload multipart", async () => {
  const spec = await parseSpec(`${SPECS}petstore_swagger2.yaml`, { env: envOf() });
  assert.equal(spec.operations.length, 20);
  assert.equal(spec.info.apiName, "petstore");
  assert.equal(spec.info.baseUrl, "http://petstore.swagger.io/v2"); // schemes: [http]
  // slice C: Swagger 2 file uploads are multipart bodies now.
  assert.deepEqual(spec.operations.filter((o) => o.unsupportedBody), []);
  assert.equal(spec.operations.find((o) => o.operationId === "uploadFile")?.bodyEncoding, "multipart");
  const addPet = spec.operations.find((o) => o.operationId === "addPet")!;
  assert.deepEqual(addPet.params.map((p) => `${p.name}${p.required ? "!" : ""}`), [
    "id",
    "category",
    "name!",
    "photoUrls!",
    "tags",
    "status",
  ]);
  assert.deepEqual(addPet.scopes, ["read:pets", "write:pets"]);
  assert.deepEqual(Object.keys(spec.securitySchemes), ["petstore_auth", "api_key"]);
  const form = spec.operations.find((o) => o.operationId === "updatePetWithForm")!;
  assert.equal(form.bodyEncoding, "form");
});

Deno.test("the OpenAPI 3.0 petstore (JSON) parses into 20 operations", async () => {
  const spec = await parseSpec(`${SPECS}petstore_oas30.json`, { env: envOf() });
  assert.equal(spec.operations.length, 20);
  // slice C: uploadFile (multipart/form-data) is supported now.
  assert.equal(spec.operations.filter((o) => o.unsupportedBody).length, 0);
  assert.equal(spec.operations.find((o) => o.operationId === "uploadFile")?.bodyEncoding, "multipart");
  const getPet = spec.operations.find((o) => o.operationId === "getPetById")!;
  assert.equal(getPet.credentialSlot?.name, "api_key");
  assert.equal((getPet.successSchema?.properties as Record<string, unknown>).category !== undefined, true);
});

Deno.test("an OpenAPI 3.1 spec (Train Travel) parses into 7 operations", async () => {
  const spec = await parseSpec(`${SPECS}train_travel_oas31.yaml`, { env: envOf() });
  assert.equal(spec.operations.length, 7);
  assert.equal(spec.info.apiName, "train-travel");
  const trips = spec.operations.find((o) => o.operationId === "get-trips" || o.path === "/trips")!;
  assert.deepEqual(trips.params.filter((p) => p.required).map((p) => p.name), [
    "origin",
    "destination",
    "date",
  ]);
  assert.deepEqual(spec.operations.map((o) => o.unsupportedBody), Array(7).fill(undefined));
});

Deno.test("specs with circular schemas and circular path references terminate", async () => {
  const circular = await parseSpec(`${SPECS}schema_circular_oas30.yaml`, { env: envOf() });
  assert.equal(circular.operations.length, 3);
  assert.ok(JSON.stringify(circular.operations).length < 200_000);
  const paths = await parseSpec(`${SPECS}circular_paths_oas30.json`, { env: envOf() });
  assert.equal(paths.operations.length, 3);
  assert.ok(paths.operations[0].successSchema);
});

Deno.test("security and server-variable examples parse with their schemes and per-operation servers", async () => {
  const security = await parseSpec(`${SPECS}security_oas30.json`, { env: envOf() });
  assert.equal(security.operations.length, 15);
  assert.equal(Object.keys(security.securitySchemes).length, 12);
  const servers = await parseSpec(`${SPECS}server_variables_oas30.json`, { env: envOf() });
  assert.equal(servers.operations.length, 4);
  assert.equal(servers.info.baseUrl, "https://demo.example.com:443/v2");
  assert.deepEqual(
    new Set(servers.operations.map((o) => o.docBaseUrl)),
    new Set(["https://demo.example.com:443/v2"]),
  );
  assert.notEqual(servers.operations[1].baseUrl, servers.operations[1].docBaseUrl);
});

Deno.test("a spec with only webhooks is refused with its own message", async () => {
  await assert.rejects(parseSpec(`${SPECS}webhooks_oas31.json`, { env: envOf() }), (error: unknown) => {
    assert.ok(error instanceof McpcastError);
    assert.match(error.message, /only webhooks/);
    return true;
  });
});

Deno.test("the GitHub REST spec (13 MB) parses into 1,223 operations", async () => {
  const started = performance.now();
  const spec = await parseSpec(`${SPECS}api.github.com.json`, { env: envOf() });
  const elapsed = performance.now() - started;
  assert.equal(spec.operations.length, 1223);
  assert.equal(spec.info.baseUrl, "https://api.github.com");
  assert.equal(new Set(spec.operations.map((o) => o.operationId)).size, 1223);
  assert.ok(spec.operations.filter((o) => o.unsupportedBody).length <= 5);
  assert.ok(elapsed < 10_000, `parsing took ${elapsed} ms`);
});

Deno.test("a fetched spec resolves relative servers against its URL and records only the public URL", async () => {
  const document = openapi({ "/pets": { get: { operationId: "listPets" } } }, {
    servers: [{ url: "/api/v3" }],
  });
  await using server = await localServer(() => Response.json(document));
  const secret = server.origin.replace("//", "//bob:hunter2@");
  const spec = await parseSpec(`${secret}/docs/openapi.json?api_key=k123`, { env: envOf() });
  assert.equal(spec.info.sourceLabel, `${server.origin}/docs/openapi.json`);
  assert.equal(spec.info.baseUrl, `${server.origin}/api/v3`);
  assert.equal(spec.operations[0].baseUrl, `${server.origin}/api/v3`);
  assert.doesNotMatch(JSON.stringify(spec), /hunter2|k123|bob/);
  const forced = await parseSpec(document, { baseUrl: "https://override.example/" });
  assert.deepEqual([forced.info.baseUrl, forced.operations[0].baseUrl], [
    "https://override.example",
    "https://override.example",
  ]);
  assert.equal("sourceLabel" in forced.info, false);
});

Deno.test("responseSchemas: false skips success response schemas; by default they are resolved", async () => {
  const spec = new URL("../../../tests/fixtures/specs/petstore_oas30.json", import.meta.url).pathname;
  const full = await parseSpec(spec);
  assert.ok(full.operations.some((op) => op.successSchema !== undefined));
  const lean = await parseSpec(spec, { responseSchemas: false });
  assert.ok(lean.operations.every((op) => op.successSchema === undefined));
  assert.equal(lean.operations.length, full.operations.length);
});
