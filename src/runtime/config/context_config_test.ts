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
    memory_max: 5,
    memory_min_score: 0,
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

Deno.test("memory_persist_directory given alone selects the file provider", () => {
  const alone = expectOk(parseSection("context", { memory_persist_directory: "mem" }));
  assert.equal(alone.memory_provider, "file");
  assert.equal(alone.memory_persist_directory, "mem");
  const both = expectOk(
    parseSection("context", { memory_provider: "file", memory_persist_directory: "mem" }),
  );
  assert.equal(both.memory_provider, "file");
  assert.equal(
    expectOk(parseSection("context", { memory_provider: "in_memory" })).memory_provider,
    "in_memory",
  );
});

Deno.test("memory_persist_directory is refused with memory_provider none or in_memory", () => {
  for (const provider of ["none", "in_memory"]) {
    assert.match(
      issueAt(
        parseSection("context", { memory_provider: provider, memory_persist_directory: "mem" }),
        "context.memory_persist_directory",
      ).expected,
      /memory_provider is "file"/,
    );
  }
});

Deno.test("memory_max is an integer >= 1 and memory_min_score a number from 0 to 1", () => {
  const context = expectOk(parseSection("context", { memory_max: 2, memory_min_score: 0.25 }));
  assert.equal(context.memory_max, 2);
  assert.equal(context.memory_min_score, 0.25);
  assert.match(issueAt(parseSection("context", { memory_max: 0 }), "context.memory_max").expected, />= 1/);
  assert.match(
    issueAt(parseSection("context", { memory_max: 1.5 }), "context.memory_max").expected,
    /integer/,
  );
  assert.match(
    issueAt(parseSection("context", { memory_min_score: 1.5 }), "context.memory_min_score").expected,
    /from 0 to 1/,
  );
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
