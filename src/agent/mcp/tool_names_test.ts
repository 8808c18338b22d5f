import assert from "node:assert/strict";
import { assignToolNames, MAX_TOOL_NAME_LENGTH, toolName } from "./tool_names.ts";

Deno.test("toolName prefixes the server and replaces characters outside [a-zA-Z0-9_-]", () => {
  assert.equal(toolName("github", "create_issue"), "github__create_issue");
  assert.equal(toolName("fs", "read.file v2"), "fs__read_file_v2");
  assert.equal(toolName("s", "café/ü"), "s__caf___");
});

Deno.test("toolName shortens long names to 64 characters with a hash that tells them apart", () => {
  const a = toolName("server", "x".repeat(100));
  const b = toolName("server", `${"x".repeat(99)}y`);
  assert.equal(a.length, MAX_TOOL_NAME_LENGTH);
  assert.equal(b.length, MAX_TOOL_NAME_LENGTH);
  assert.notEqual(a, b);
  assert.equal(a.slice(0, 55), b.slice(0, 55));
  assert.match(a, /^server__x+_[0-9a-f]{8}$/);
  assert.equal(toolName("server", "x".repeat(100)), a, "deterministic");
});

Deno.test("assignToolNames keeps clean names and gives hashed names to the ones that clash after replacement", () => {
  const names = assignToolNames([
    { server: "s", tool: "a.b" },
    { server: "s", tool: "a_b" },
    { server: "s", tool: "a b" },
  ]);
  assert.equal(names[1], "s__a_b");
  assert.match(names[0], /^s__a_b_[0-9a-f]{8}$/);
  assert.match(names[2], /^s__a_b_[0-9a-f]{8}$/);
  assert.equal(new Set(names).size, 3);
});

Deno.test("assignToolNames tells apart names that clash through '__' by server order, whatever the input order", () => {
  const forward = assignToolNames([{ server: "a", tool: "b__c" }, { server: "a__b", tool: "c" }]);
  const backward = assignToolNames([{ server: "a__b", tool: "c" }, { server: "a", tool: "b__c" }]);
  assert.deepEqual(forward, ["a__b__c", "a__b__c_2"]);
  assert.deepEqual(backward, ["a__b__c_2", "a__b__c"]);
});
