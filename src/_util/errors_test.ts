import assert from "node:assert/strict";
import { publicDetails } from "./errors.ts";

Deno.test("publicDetails collects the hints an error and its causes carry, outermost first", () => {
  const inner = Object.assign(new Error("bind"), { publicDetail: { field: "a", expected: "b" } });
  const middle = new Error("wrapped", { cause: inner });
  const outer = Object.assign(new Error("outer", { cause: middle }), {
    publicDetail: { field: "c", expected: "d" },
  });
  assert.deepEqual(publicDetails(outer), [{ field: "c", expected: "d" }, { field: "a", expected: "b" }]);
});

Deno.test("publicDetails ignores malformed hints and non-errors", () => {
  const odd = Object.assign(new Error("x"), { publicDetail: { field: 1, expected: "y" } });
  assert.deepEqual(publicDetails(odd), []);
  assert.deepEqual(publicDetails("text"), []);
  assert.deepEqual(publicDetails(undefined), []);
});
