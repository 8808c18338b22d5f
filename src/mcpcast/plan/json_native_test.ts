import assert from "node:assert/strict";
import { jsonNative } from "./json_native.ts";

Deno.test("jsonNative turns YAML-only values into JSON: dates, non-finite numbers, big integers", () => {
  assert.deepEqual(
    jsonNative({
      day: new Date("2026-01-15T00:00:00Z"),
      at: new Date("2026-01-15T09:30:00Z"),
      values: [Infinity, -Infinity, NaN, 1.5, undefined],
      big: 12n,
      huge: 2n ** 80n,
      gone: undefined,
      text: "a\u001bb",
    }),
    {
      day: "2026-01-15",
      at: "2026-01-15T09:30:00.000Z",
      values: ["Infinity", "-Infinity", "NaN", 1.5, null],
      big: 12,
      huge: "1208925819614629174706176",
      text: "ab",
    },
  );
});

Deno.test("jsonNative keeps a __proto__ key as data and allows shared (non-cyclic) values", () => {
  const shared = { type: "string" };
  const out = jsonNative(JSON.parse('{"__proto__": {"x": 1}, "a": 1}')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(out), ["__proto__", "a"]);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(jsonNative({ a: shared, b: shared }), { a: shared, b: shared });
});

Deno.test("jsonNative returns unchanged values as they are and copies only the containers on a change's path", () => {
  const untouched = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };
  assert.equal(jsonNative(untouched), untouched);
  const list = [1, "two", { three: 3 }];
  assert.equal(jsonNative(list), list);

  const sibling = { type: "string" };
  const input = { a: sibling, b: { max: Infinity }, c: [1, undefined], d: "kept" };
  const out = jsonNative(input) as Record<string, unknown>;
  assert.notEqual(out, input);
  assert.equal(out.a, sibling, "an unchanged branch is shared, not copied");
  assert.deepEqual(out, { a: { type: "string" }, b: { max: "Infinity" }, c: [1, null], d: "kept" });
  assert.deepEqual(input.b, { max: Infinity }, "the input is not changed");
  const holed: unknown[] = [];
  holed[0] = 1;
  holed[2] = 3;
  assert.deepEqual(jsonNative(holed), [1, null, 3], "a hole becomes null");
  assert.deepEqual(Object.keys(jsonNative({ x: 1, "e\u001bsc": 2 }) as object), ["x", "esc"]);
});
