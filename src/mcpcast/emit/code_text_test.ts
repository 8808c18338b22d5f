import assert from "node:assert/strict";
import { commentText, markdownCode, markdownText } from "./code_text.ts";

Deno.test("comment and Markdown text cannot escape their context", () => {
  assert.equal(commentText("a */ b\nc\u2028d"), "a * / b c d");
  assert.equal(commentText("x".repeat(10), 5), "xxxx…");
  assert.equal(markdownText("a|b\n`c` <d> *e*"), "a\\|b \\`c\\` \\<d\\> \\*e\\*");
  assert.equal(markdownCode("a`b"), "`a'b`");
});
