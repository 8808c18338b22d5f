import assert from "node:assert/strict";
import { canonicalJson, toCanonical } from "./canonical_json.ts";

Deno.test("canonical JSON sorts keys at every depth and drops undefined members", () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: "x" }, u: undefined }),
    '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
  );
  assert.equal(canonicalJson({ 10: "a", 9: "b", a: "c" }), '{"10":"a","9":"b","a":"c"}');
  assert.equal(canonicalJson([undefined, 1]), "[null,1]");
  assert.equal(canonicalJson(undefined), "null");
});

Deno.test("canonical JSON stringifies values JSON cannot hold", () => {
  function named() {}
  const value = {
    big: 12n,
    nan: NaN,
    inf: -Infinity,
    error: new RangeError("too far"),
    date: new Date(0),
    symbol: Symbol("s"),
    fn: named,
    map: new Map<unknown, unknown>([[2, "two"], ["a", new Set([1, 1, 2])]]),
  };
  assert.deepEqual(toCanonical(value), {
    big: "12",
    date: "1970-01-01T00:00:00.000Z",
    error: "RangeError: too far",
    fn: "[Function named]",
    inf: "-Infinity",
    map: { 2: "two", a: [1, 2] },
    nan: "NaN",
    symbol: "Symbol(s)",
  });
});

Deno.test("canonical JSON survives cycles, deep nesting and a __proto__ key, and is stable when re-read", () => {
  const cyclic: Record<string, unknown> = { name: "loop" };
  cyclic.self = cyclic;
  const shared = { x: 1 };
  assert.equal(
    canonicalJson({ cyclic, a: shared, b: shared }),
    '{"a":{"x":1},"b":{"x":1},"cyclic":{"name":"loop","self":"[Circular]"}}',
  );
  let deep: unknown = "bottom";
  for (let i = 0; i < 100; i++) deep = [deep];
  assert.match(canonicalJson(deep), /"\[MaxDepth\]"/);
  const parsed = JSON.parse('{"__proto__":{"polluted":true},"b":"\\u2028 é 😀","a":1.5e-7}');
  const text = canonicalJson(parsed);
  assert.equal(text, '{"__proto__":{"polluted":true},"a":1.5e-7,"b":"\u2028 é 😀"}');
  assert.equal(canonicalJson(JSON.parse(text)), text);
  assert.equal(canonicalJson(toCanonical(parsed)), text);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
