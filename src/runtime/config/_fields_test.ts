import assert from "node:assert/strict";
import { z } from "zod";
import { integer, isHttpUrl, rangeWords, strictObject } from "./_fields.ts";

Deno.test("rangeWords phrases each kind of bound", () => {
  assert.equal(rangeWords({ min: 1 }), " >= 1");
  assert.equal(rangeWords({ gt: 0 }), " > 0");
  assert.equal(rangeWords({ min: 0, max: 23 }), " from 0 to 23");
  assert.equal(rangeWords({ gt: 0, max: 1 }), " > 0 and <= 1");
  assert.equal(rangeWords({}), "");
});

Deno.test("isHttpUrl accepts only http and https URLs with a host", () => {
  assert.equal(isHttpUrl("https://example.com/mcp"), true);
  assert.equal(isHttpUrl("http://127.0.0.1:8080"), true);
  assert.equal(isHttpUrl("ftp://example.com"), false);
  assert.equal(isHttpUrl("file:///etc/passwd"), false);
  assert.equal(isHttpUrl("example.com"), false);
});

Deno.test("integer carries one phrase for type, format and range problems", () => {
  const schema = integer({ min: 1 });
  for (const value of ["5", 1.5, 0]) {
    const result = schema.safeParse(value);
    assert.equal(result.success, false);
    assert.equal(result.error?.issues[0].message, "an integer >= 1");
  }
});

Deno.test("strictObject lists the allowed fields, also after extend", () => {
  const base = strictObject({ a: z.number() });
  const extended = base.extend({ b: z.number() });
  assert.equal(base.safeParse({ a: 1, c: 2 }).error?.issues[0].message, "no such field; allowed: a");
  assert.equal(
    extended.safeParse({ a: 1, b: 2, c: 3 }).error?.issues[0].message,
    "no such field; allowed: a, b",
  );
});
