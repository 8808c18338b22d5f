import assert from "node:assert/strict";
import { patternExample } from "./pattern_example.ts";

Deno.test("patternExample writes the shortest match of common patterns, and it matches", () => {
  const cases: [string, string][] = [
    ["^\\d+\\.\\d+\\.\\d+$", "1.1.1"],
    ["^sha256:[a-f0-9]{64}$", `sha256:${"a".repeat(64)}`],
    ["^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$", "AA=="],
    ["^([0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?)$", "0".repeat(40)],
    ["^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) ", "ssh-rsa "],
    ["^[A-Z]{2}-\\d{4}$", "AA-1111"],
    ["^(foo|bar)?baz$", "baz"],
    ["^[^,]+$", "a"],
    ["\\S+@\\S+", "a@a"],
    ["^\\D\\W$", "a-"],
    ["^[\\w.-]+$", "a"],
    ["^\\u0041\\x42$", "AB"],
    ["^$", ""],
  ];
  for (const [pattern, expected] of cases) {
    const text = patternExample(pattern);
    assert.equal(text, expected, pattern);
    assert.match(text!, new RegExp(pattern, "u"));
  }
});

Deno.test("patternExample gives none for what it does not write, never a wrong example", () => {
  for (
    const pattern of [
      "^(?=x)", // lookahead
      "(a)\\1", // back-reference
      "^\\p{L}+$", // property escape
      "a{5000}", // longer than an example should be
      "[", // not a regular expression
      "^[a-z]+$(?<!x)", // lookbehind
    ]
  ) {
    assert.equal(patternExample(pattern), undefined, pattern);
  }
});
