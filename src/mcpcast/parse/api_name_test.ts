import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parseSpec } from "./parse_spec.ts";
import { apiNameFor, apiNameSlug, hostApiName, specHost } from "./api_name.ts";
import { describeSpec } from "./info.ts";

Deno.test("the API name drops filler words, version tokens and a possessive 's", () => {
  assert.equal(apiNameSlug("Swagger Petstore - OpenAPI 3.0"), "petstore");
  assert.equal(apiNameSlug("GitHub v3 REST API"), "github");
  assert.equal(apiNameSlug("Stripe API v2024.01.02"), "stripe");
  assert.equal(apiNameSlug("The JSON Spec Specification APIs"), "the");
  assert.equal(apiNameSlug("Café Orders — Web3 Edition"), "cafe-orders-web3-edition");
  assert.equal(apiNameSlug("GitHub's official OpenAPI spec"), "github-official");
  assert.equal(apiNameSlug("O'Reilly Books"), "oreilly-books");
  assert.equal(apiNameSlug("OpenAPI 3.1"), "");
  const long = apiNameSlug("word ".repeat(40));
  assert.ok(long.length <= 63 && !long.endsWith("-"), long);
  assert.match(long, /^[a-z0-9][a-z0-9_-]{0,62}$/);
});

Deno.test("a short title is the name; a long one gives way to the spec's host, else to its first words", () => {
  assert.equal(apiNameFor("Train Travel API", { host: "api.example.com" }), "train-travel");
  assert.equal(
    apiNameFor("GitHub's official OpenAPI spec + Octokit extension", { host: "api.github.com" }),
    "github",
  );
  assert.equal(
    apiNameFor("Support for different security types", { host: "api.example.com" }),
    "support-for-different",
  );
  assert.equal(apiNameFor("Support for different security types"), "support-for-different");
  assert.equal(apiNameFor("Payments and refunds for merchants", { host: "api.acme.co.uk" }), "acme");
  assert.equal(apiNameFor("x".repeat(40)), "x".repeat(30));
});

Deno.test("a host names an API by its domain, never by an address, a lone label or a shared domain", () => {
  assert.equal(hostApiName("api.github.com"), "github");
  assert.equal(hostApiName("petstore.swagger.io"), undefined, "swagger is a filler word");
  assert.equal(hostApiName("graph.microsoft.com"), "microsoft");
  assert.equal(hostApiName("API.Stripe.com."), "stripe");
  assert.equal(hostApiName("127.0.0.1"), undefined);
  assert.equal(hostApiName("localhost"), undefined);
  assert.equal(hostApiName("abc.execute-api.us-east-1.amazonaws.com"), undefined);
  assert.equal(hostApiName("api.example.com"), undefined);
  assert.equal(specHost({ servers: [{ url: "https://api.github.com/v3" }] }), "api.github.com");
  assert.equal(specHost({ host: "petstore.swagger.io", basePath: "/v2" }), "petstore.swagger.io");
  assert.equal(specHost({ servers: [{ url: "/v1" }] }), undefined);
});

Deno.test("an untitled API is named after its host, else its file or URL stem, and untitled inline text is api", () => {
  assert.equal(apiNameFor(undefined, { sourceLabel: "specs/widgets-v2.openapi.yaml" }), "widgets");
  assert.equal(apiNameFor(undefined, { sourceLabel: "https://api.example.com/billing/openapi.json" }), "api");
  assert.equal(
    apiNameFor(undefined, { sourceLabel: "https://api.example.com/billing/orders.json" }),
    "orders",
  );
  assert.equal(apiNameFor("OpenAPI", { sourceLabel: "/tmp/inventory.yml" }), "inventory");
  assert.equal(apiNameFor("OpenAPI", { host: "api.twilio.com", sourceLabel: "/tmp/spec.yml" }), "twilio");
  assert.equal(apiNameFor(undefined, { sourceLabel: "<inline>" }), "api");
  assert.equal(apiNameFor(undefined), "api");
});

Deno.test("the name is the same whatever base URL the user passes", () => {
  const document = {
    openapi: "3.0.0",
    info: { title: "GitHub's official OpenAPI spec + Octokit extension", version: "1" },
    servers: [{ url: "https://api.github.com" }],
  };
  assert.equal(describeSpec(document).apiName, "github");
  assert.equal(describeSpec(document, { baseUrl: "http://127.0.0.1:4010" }).apiName, "github");
  assert.equal(describeSpec(document, { baseUrl: "https://ghe.acme.com/api/v3" }).apiName, "github");
});

Deno.test("the corpus specs get short names", async () => {
  const names: Record<string, string> = {};
  for (const file of ["api.github.com.json", "petstore_swagger2.yaml", "train_travel_oas31.yaml"]) {
    const path = fileURLToPath(new URL(`../../../tests/fixtures/specs/${file}`, import.meta.url));
    names[file] = (await parseSpec(path)).info.apiName;
  }
  assert.deepEqual(names, {
    "api.github.com.json": "github",
    "petstore_swagger2.yaml": "petstore",
    "train_travel_oas31.yaml": "train-travel",
  });
});
