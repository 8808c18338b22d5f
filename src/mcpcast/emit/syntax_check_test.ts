import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { checkRenderedSyntax, jsonProblem } from "./syntax_check.ts";

Deno.test("the syntax check names the file that does not parse", () => {
  assert.throws(
    () => checkRenderedSyntax({ "main.ts": "export {};", "src/tools/x.ts": "const a = {;" }),
    (error) => error instanceof McpcastError && error.message.includes("src/tools/x.ts"),
  );
  assert.equal(jsonProblem('// comment\n{"a": 1}'), undefined);
  assert.notEqual(jsonProblem("{"), undefined);
  assert.doesNotThrow(() => checkRenderedSyntax({ "a.ts": "export const a: number = 1;", "README.md": "{" }));
});
