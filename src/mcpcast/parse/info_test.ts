import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { describeSpec, resolveBaseUrl, serverUrl, summaryLine } from "./info.ts";

Deno.test("the summary is 'Title: first description line' when they differ, capped at 300 characters", () => {
  assert.equal(summaryLine("Pets", "\n  Manage pets.  \nMore text."), "Pets: Manage pets.");
  assert.equal(summaryLine("Pets", "Pets\nsecond"), "Pets");
  assert.equal(summaryLine(undefined, "Only a description"), "Only a description");
  assert.equal(summaryLine("Only a title", undefined), "Only a title");
  assert.equal(summaryLine(undefined, undefined), "");
  const capped = summaryLine("T", "x".repeat(400));
  assert.equal(capped.length, 300);
  assert.ok(capped.endsWith("…"));
});

Deno.test("describing a spec reads info and omits what it lacks", () => {
  const info = describeSpec(
    {
      info: { title: " Swagger Petstore - OpenAPI 3.0 ", description: "Sample store.", version: 3 },
      paths: {},
    },
    { sourceLabel: "<inline>" },
  );
  assert.deepEqual(info, {
    apiName: "petstore",
    summary: "Swagger Petstore - OpenAPI 3.0: Sample store.",
    baseUrl: "",
    title: "Swagger Petstore - OpenAPI 3.0",
    description: "Sample store.",
    version: "3",
    sourceLabel: "<inline>",
  });
  assert.deepEqual(describeSpec({ paths: {} }), { apiName: "api", summary: "", baseUrl: "" });
});

Deno.test("the base URL: an explicit override wins, its trailing slash stripped", () => {
  const document = { servers: [{ url: "https://api.example.com/v1" }] };
  assert.equal(resolveBaseUrl(document, { baseUrl: "http://localhost:8080/" }), "http://localhost:8080");
  assert.equal(resolveBaseUrl(document), "https://api.example.com/v1");
});

Deno.test("the base URL: servers[0] with variables replaced by their defaults", () => {
  const document = {
    servers: [
      {
        url: "https://{region}.example.com:{port}/{base}/",
        variables: {
          region: { default: "eu" },
          port: { enum: ["443"], default: 443 },
          base: { default: "v2" },
        },
      },
      { url: "https://other.example.com" },
    ],
  };
  assert.equal(resolveBaseUrl(document), "https://eu.example.com:443/v2");
});

Deno.test("a server variable without a default asks for --base-url, unless the caller forced one", () => {
  const document = { servers: [{ url: "https://{tenant}.example.com", variables: { tenant: {} } }] };
  assert.throws(() => resolveBaseUrl(document), (error: unknown) => {
    assert.ok(error instanceof McpcastError);
    assert.match(error.message, /server variable 'tenant' in servers\[0\] has no default; pass --base-url/);
    return true;
  });
  assert.equal(resolveBaseUrl(document, { baseUrl: "https://acme.example.com" }), "https://acme.example.com");
});

Deno.test("a relative server URL resolves against the spec URL", () => {
  const spec = "https://api.example.com/docs/openapi.json";
  assert.equal(
    resolveBaseUrl({ servers: [{ url: "/api/v3" }] }, { specUrl: spec }),
    "https://api.example.com/api/v3",
  );
  assert.equal(
    resolveBaseUrl({ servers: [{ url: "v1" }] }, { specUrl: spec }),
    "https://api.example.com/docs/v1",
  );
  assert.equal(resolveBaseUrl({ servers: [{ url: "/" }] }, { specUrl: spec }), "https://api.example.com");
  assert.equal(resolveBaseUrl({ servers: [{ url: "/api/v3" }] }), "/api/v3");
});

Deno.test("the base URL of Swagger 2 is schemes[0] (default https) + host + basePath", () => {
  assert.equal(
    resolveBaseUrl({
      swagger: "2.0",
      host: "petstore.swagger.io",
      basePath: "/v2",
      schemes: ["HTTP", "https"],
    }),
    "http://petstore.swagger.io/v2",
  );
  assert.equal(resolveBaseUrl({ swagger: "2.0", host: "api.example.com" }), "https://api.example.com");
  assert.equal(
    resolveBaseUrl({ swagger: "2.0", basePath: "/v1" }, { specUrl: "http://127.0.0.1:8000/swagger.json" }),
    "http://127.0.0.1:8000/v1",
  );
});

Deno.test("without servers the spec URL's origin is the base, and without anything it is empty", () => {
  assert.equal(
    resolveBaseUrl({ paths: {} }, { specUrl: "http://localhost:8765/openapi.json" }),
    "http://localhost:8765",
  );
  assert.equal(resolveBaseUrl({ paths: {} }), "");
  assert.equal(
    resolveBaseUrl({ servers: [{ description: "no url" }] }, { specUrl: "http://h.example/o.json" }),
    "",
  );
});

Deno.test("an unusable servers list has no server URL", () => {
  assert.equal(serverUrl(undefined, { where: "servers" }), undefined);
  assert.equal(serverUrl([], { where: "servers" }), undefined);
  assert.equal(serverUrl(["https://x"], { where: "servers" }), undefined);
  assert.equal(serverUrl([{ url: "https://x.example/" }], { where: "servers" }), "https://x.example");
});
