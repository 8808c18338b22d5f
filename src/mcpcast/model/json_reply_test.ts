import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonObjectIn } from "./json_reply.ts";
import { estimateTokens } from "./tokens.ts";

test("jsonObjectIn finds the object in a fence, bare text or a span, and skips arrays and junk", () => {
  assert.deepEqual(jsonObjectIn('Here:\n```json\n{"a":1}\n```\nthanks'), { a: 1 });
  assert.deepEqual(jsonObjectIn('{"b":[1,2]}'), { b: [1, 2] });
  assert.deepEqual(jsonObjectIn('Sure! {"c":true} hope this helps'), { c: true });
  assert.equal(jsonObjectIn("[1,2]"), undefined);
  assert.equal(jsonObjectIn("no json here"), undefined);
  assert.equal(jsonObjectIn("{not: json}"), undefined);
});

test("estimateTokens counts about four characters a token, rounding up", () => {
  assert.equal(estimateTokens(""), 0);
  assert.equal(estimateTokens("abcd"), 1);
  assert.equal(estimateTokens("abcde"), 2);
});
