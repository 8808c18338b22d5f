import assert from "node:assert/strict";
import { parseSection } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an empty context section leaves every key writable", () => {
  const context = expectOk(parseSection("context", {}));
  assert.deepEqual(context, {
    initial_state: {},
    conversation_history: true,
    conversation_max_messages: 100,
    memory_provider: "none",
  });
  assert.equal(context.writable_keys, undefined);
});

Deno.test("writable_keys may be empty (nothing writable) or list key names", () => {
  assert.deepEqual(expectOk(parseSection("context", { writable_keys: [] })).writable_keys, []);
  assert.deepEqual(expectOk(parseSection("context", { writable_keys: ["status"] })).writable_keys, [
    "status",
  ]);
  assert.match(
    issueAt(parseSection("context", { writable_keys: [3] }), "context.writable_keys[0]").expected,
    /key name \(got a number\)/,
  );
});

Deno.test("initial_state keeps any JSON values", () => {
  const state = { count: 1, tags: ["a"], nested: { ok: true } };
  assert.deepEqual(expectOk(parseSection("context", { initial_state: state })).initial_state, state);
  assert.match(
    issueAt(parseSection("context", { initial_state: [] }), "context.initial_state").expected,
    /object/,
  );
});

Deno.test("memory_persist_directory is refused unless memory_provider is file", () => {
  assert.match(
    issueAt(parseSection("context", { memory_persist_directory: "mem" }), "context.memory_persist_directory")
      .expected,
    /memory_provider is "file"/,
  );
  const context = expectOk(
    parseSection("context", { memory_provider: "file", memory_persist_directory: "mem" }),
  );
  assert.equal(context.memory_persist_directory, "mem");
});

Deno.test("conversation_max_messages accepts 0 (unlimited) but not negatives", () => {
  assert.equal(
    expectOk(parseSection("context", { conversation_max_messages: 0 })).conversation_max_messages,
    0,
  );
  assert.match(
    issueAt(parseSection("context", { conversation_max_messages: -1 }), "context.conversation_max_messages")
      .expected,
    />= 0/,
  );
});
