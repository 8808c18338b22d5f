import assert from "node:assert/strict";
import { McpcastError } from "../../mcpcast/mod.ts";
import { oneLineMessage, parseSource, publicSource } from "./source.ts";

Deno.test("a listing error becomes one line: the heading, then each item joined with '; '", () => {
  assert.equal(
    oneLineMessage("invalid plan:\n- api.name: bad name\n- tools.0.risk: below the floor\n"),
    "invalid plan: api.name: bad name; tools.0.risk: below the floor",
  );
  assert.equal(oneLineMessage("spec not found: x.yaml"), "spec not found: x.yaml");
});

Deno.test("a URL source is shown without credentials, query or fragment", () => {
  assert.equal(
    publicSource(" https://bot:t0ken@api.example.com/v1/openapi.json?key=s3cret#x "),
    "https://api.example.com/v1/openapi.json",
  );
  assert.equal(publicSource("./specs/pets.yaml"), "./specs/pets.yaml");
});

Deno.test("parseSource passes the environment to the spec limits", async () => {
  const tiny = (name: string) => name === "MCPCAST_MAX_SPEC_NODES" ? "10" : undefined;
  const inline =
    "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /a: {get: {operationId: a, responses: {'200': {description: ok}}}}\n";
  await assert.rejects(parseSource(inline, { env: tiny }), McpcastError);
  assert.equal((await parseSource(inline, { env: () => undefined })).operations.length, 1);
});
