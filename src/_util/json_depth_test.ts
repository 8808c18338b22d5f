import assert from "node:assert/strict";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "./json_depth.ts";

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { k: value };
  return value;
}

Deno.test("nesting up to the limit passes; one level more does not; scalars are depth 0", () => {
  assert.equal(nestedDeeperThan(42, 0), false);
  assert.equal(nestedDeeperThan({}, 0), true);
  assert.equal(nestedDeeperThan(nested(MAX_JSON_DEPTH)), false);
  assert.equal(nestedDeeperThan(nested(MAX_JSON_DEPTH + 1)), true);
  assert.equal(nestedDeeperThan({ a: [1, { b: 2 }], c: "x" }, 3), false);
  assert.equal(nestedDeeperThan({ a: [1, { b: {} }] }, 3), true);
});

Deno.test("a value nested 100,000 deep is measured without overflowing the stack", () => {
  const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000));
  assert.equal(nestedDeeperThan(deep), true);
});
