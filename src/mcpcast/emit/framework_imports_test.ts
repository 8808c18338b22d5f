import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { DEFAULT_FRAMEWORK_IMPORT, frameworkImports } from "./framework_imports.ts";

Deno.test("a registry specifier maps the package prefix to its URL form, which Deno can resolve subpaths against", () => {
  assert.equal(DEFAULT_FRAMEWORK_IMPORT, "jsr:@agentry/agentry@^0.1");
  assert.deepEqual(frameworkImports(), { "@agentry/agentry/": "jsr:/@agentry/agentry@^0.1/" });
  for (
    const [given, address] of [
      ["npm:@agentry/agentry@1/", "npm:/@agentry/agentry@1/"],
      ["jsr:/@agentry/agentry@0.1.3", "jsr:/@agentry/agentry@0.1.3/"],
      ["JSR:@fork/agentry@^2", "jsr:/@fork/agentry@^2/"],
      ["https://esm.example/agentry@0.1//", "https://esm.example/agentry@0.1/"],
    ]
  ) {
    assert.deepEqual(frameworkImports(given), { "@agentry/agentry/": address }, given);
  }
});

Deno.test("a checkout maps each export to its file and copies the checkout's dependencies", () => {
  const root = new URL("../../../", import.meta.url);
  const imports = frameworkImports(root.href.replace(/\/$/, ""));
  assert.equal(imports["@agentry/agentry/mcp"], new URL("src/mcp/mod.ts", root).href);
  assert.equal(imports["@agentry/agentry/mcpcast"], new URL("src/mcpcast/mod.ts", root).href);
  assert.equal(imports["@agentry/agentry"], new URL("mod.ts", root).href);
  assert.match(imports.zod, /^npm:zod@/);
});

Deno.test("explicit entries are used as given; empty or broken ones are refused", () => {
  assert.deepEqual(frameworkImports({ "@agentry/agentry/mcp": "file:///x/mcp.ts" }), {
    "@agentry/agentry/mcp": "file:///x/mcp.ts",
  });
  assert.throws(() => frameworkImports(""), McpcastError);
  assert.throws(() => frameworkImports("agentry"), McpcastError);
  assert.throws(() => frameworkImports("github:agentry/agentry"), McpcastError);
  assert.throws(() => frameworkImports({ a: "" }), McpcastError);
  assert.throws(() => frameworkImports("file:///nonexistent-checkout/"), McpcastError);
});
