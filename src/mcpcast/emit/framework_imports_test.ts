import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { DEFAULT_FRAMEWORK_IMPORT, frameworkImports } from "./framework_imports.ts";

Deno.test("a registry specifier maps the package prefix", () => {
  assert.deepEqual(frameworkImports(), { "@agentry/agentry/": `${DEFAULT_FRAMEWORK_IMPORT}/` });
  assert.deepEqual(frameworkImports("npm:@agentry/agentry@1/"), {
    "@agentry/agentry/": "npm:@agentry/agentry@1/",
  });
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
  assert.throws(() => frameworkImports({ a: "" }), McpcastError);
  assert.throws(() => frameworkImports("file:///nonexistent-checkout/"), McpcastError);
});
