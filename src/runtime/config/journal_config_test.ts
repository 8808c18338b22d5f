import assert from "node:assert/strict";
import { parseProcessConfig, parseSection } from "./issues.ts";
import { journalEnabled } from "./journal_config.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("a config without a journal section has no journal", () => {
  const config = expectOk(parseProcessConfig({}));
  assert.equal(config.journal, undefined);
  assert.equal(journalEnabled(config.journal), false);
});

Deno.test("an empty journal section is a checkpoint-level file journal at the runtime's path", () => {
  const journal = expectOk(parseSection("journal", {}));
  assert.deepEqual(journal, { level: "checkpoint", backend: "file" });
  assert.equal(journalEnabled(journal), true);
});

Deno.test("journal level none counts as no journal", () => {
  assert.equal(journalEnabled(expectOk(parseSection("journal", { level: "none" }))), false);
});

Deno.test("journal fields refuse unknown values", () => {
  assert.equal(
    issueAt(parseSection("journal", { backend: "postgres" }), "journal.backend").expected,
    'one of "memory", "file", "sqlite"',
  );
  assert.match(issueAt(parseSection("journal", { path: "" }), "journal.path").expected, /directory path/);
  assert.match(issueAt(parseProcessConfig({ journal: null }), "journal").expected, /object \(got null\)/);
});
