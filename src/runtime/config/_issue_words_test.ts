import assert from "node:assert/strict";
import { describeValue } from "./_issue_words.ts";

Deno.test("describeValue names the kind of a value, never its content", () => {
  assert.equal(describeValue("secret-value"), "a string");
  assert.equal(describeValue(""), "an empty string");
  assert.equal(describeValue(42), "a number");
  assert.equal(describeValue(true), "a boolean");
  assert.equal(describeValue(null), "null");
  assert.equal(describeValue(undefined), "nothing");
  assert.equal(describeValue([]), "an empty list");
  assert.equal(describeValue([1]), "a list");
  assert.equal(describeValue({}), "an object");
  assert.equal(describeValue(() => 1), "a function");
});
