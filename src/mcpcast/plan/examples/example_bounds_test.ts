import assert from "node:assert/strict";
import { withinBounds } from "./example_bounds.ts";

Deno.test("bounds: patterns, lengths, ranges and item counts, nested values included", () => {
  assert.equal(withinBounds("1.2.3", { pattern: "^\\d+\\.\\d+\\.\\d+$" }), true);
  assert.equal(withinBounds("string", { pattern: "^\\d+$" }), false);
  assert.equal(withinBounds("ab", { minLength: 3 }), false);
  assert.equal(withinBounds(5, { minimum: 1, exclusiveMaximum: 5 }), false);
  assert.equal(withinBounds([1], { minItems: 2 }), false);
  const nested = {
    type: "array",
    items: { type: "object", properties: { digest: { pattern: "^sha256:" } } },
  };
  assert.equal(withinBounds([{ digest: "string" }], nested), false);
  assert.equal(withinBounds([{ digest: "sha256:ab" }], nested), true);
});

Deno.test("bounds: a pattern that is not a valid regular expression is not held against a value", () => {
  assert.equal(withinBounds("anything", { pattern: "([unclosed" }), true);
});
