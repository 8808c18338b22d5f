import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { McpcastError } from "../errors.ts";
import { parseSpec } from "../parse/mod.ts";
import { checkSpecVersion } from "./spec_version.ts";

const SWAGGER_12 = fileURLToPath(
  new URL("../../../tests/fixtures/specs/petstore_swagger12.json", import.meta.url),
);
const READS = "mcpcast reads OpenAPI 3.0/3.1 and Swagger 2.0";

function refused(document: Record<string, unknown>): string {
  try {
    checkSpecVersion(document);
  } catch (error) {
    assert.ok(error instanceof McpcastError, String(error));
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(document)}`);
}

Deno.test("a Swagger 1.2 resource listing is refused as unsupported, naming what mcpcast reads and how to convert", async () => {
  await assert.rejects(parseSpec(SWAGGER_12), (error: unknown) => {
    assert.ok(error instanceof McpcastError);
    assert.equal(
      error.message,
      `Swagger 1.2 is not supported: ${READS}; convert it first (e.g. with api-spec-converter ` +
        "--from=swagger_1 --to=swagger_2) or use the API's newer description",
    );
    return true;
  });
});

Deno.test("OpenAPI 3.0, 3.1 and Swagger 2.0 pass, as strings or as the numbers YAML makes of them", () => {
  for (const openapi of ["3.0.0", "3.0.3", "3.1.0", "3.1.1", 3, 3.1]) {
    assert.equal(checkSpecVersion({ openapi }), "openapi", String(openapi));
  }
  for (const swagger of ["2.0", 2, "2"]) {
    assert.equal(checkSpecVersion({ swagger }), "swagger", String(swagger));
  }
});

Deno.test("other versions are refused naming the version field found", () => {
  assert.equal(refused({ openapi: "4.0.0" }), `OpenAPI 4.0.0 is not supported (field 'openapi'): ${READS}`);
  assert.match(
    refused({ openapi: "2.0" }),
    /^OpenAPI 2\.0 is not supported \(field 'openapi'\): .*swagger: "2\.0"$/,
  );
  assert.match(
    refused({ swagger: "1.2" }),
    /^Swagger 1\.2 is not supported \(field 'swagger'\): .*api-spec-converter/,
  );
  assert.equal(refused({ swagger: "3.0" }), `Swagger 3.0 is not supported (field 'swagger'): ${READS}`);
  assert.match(refused({ swaggerVersion: "1.1", apis: [] }), /^Swagger 1\.1 is not supported: /);
  assert.match(
    refused({ openapi: { major: 3 } }),
    /^spec field 'openapi' is '\{"major":3\}', not a version: /,
  );
  assert.match(
    refused({ asyncapi: "2.6.0", channels: {} }),
    /^AsyncAPI 2\.6\.0 is not supported \(field 'asyncapi'\)/,
  );
});

Deno.test("a document with neither an openapi nor a swagger field is refused, saying which field to add", async () => {
  const message = refused({ info: { title: "x", version: "1" }, paths: {} });
  assert.match(message, /^spec names no version \(neither an 'openapi' nor a 'swagger' field\): /);
  assert.match(message, /add openapi: 3\.0\.3 or swagger: "2\.0"/);
  await assert.rejects(
    parseSpec({ info: { title: "x", version: "1" }, paths: { "/a": { get: {} } } }),
    McpcastError,
  );
});
