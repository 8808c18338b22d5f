import assert from "node:assert/strict";
import { z } from "zod";
import {
  formatIssueList,
  formatZodIssues,
  isUnknownFieldIssue,
  parseProcessConfig,
  parseSection,
  parseWith,
} from "./issues.ts";
import { expectIssues, issueAt } from "./_test_parse.ts";

Deno.test("a config that is not an object is reported at (config)", () => {
  assert.deepEqual(expectIssues(parseProcessConfig([])), [
    { field: "(config)", expected: "a process config object (got an empty list)" },
  ]);
  assert.deepEqual(expectIssues(parseProcessConfig(null)), [
    { field: "(config)", expected: "a process config object (got null)" },
  ]);
});

Deno.test("each unknown key is its own issue, named in field", () => {
  const issues = expectIssues(parseSection("inbox", { a: 1, b: 2 }));
  assert.deepEqual(issues.map((issue) => issue.field), ["inbox.a", "inbox.b"]);
  assert.ok(issues.every(isUnknownFieldIssue));
  assert.equal(
    isUnknownFieldIssue({ field: "inbox.enabled", expected: "true or false (got a number)" }),
    false,
  );
});

Deno.test("received values are described by kind and never echoed", () => {
  const secret = "sk-live-very-secret-value";
  const issues = expectIssues(parseProcessConfig({ concurrency: secret, budget: { on_exceeded: secret } }));
  assert.equal(issues.length, 2);
  for (const issue of issues) assert.ok(!issue.expected.includes(secret), issue.expected);
  assert.equal(
    issueAt(parseProcessConfig({ concurrency: secret }), "concurrency").expected,
    "an integer from 1 to 100 (got a string)",
  );
});

Deno.test("parseSection reports fields under the section name or a chosen prefix", () => {
  assert.equal(
    issueAt(parseSection("health", { stuck_threshold: "3" }), "health.stuck_threshold").expected,
    "an integer >= 2 (got a string)",
  );
  const bare = parseSection("health", { stuck_threshold: "3" }, { prefix: "" });
  assert.equal(issueAt(bare, "stuck_threshold").expected, "an integer >= 2 (got a string)");
  assert.deepEqual(expectIssues(parseSection("budget", 5)), [{
    field: "budget",
    expected: "an object (got a number)",
  }]);
});

Deno.test("parseWith gives plain words for schemas without their own phrases", () => {
  const schema = z.object({
    n: z.number().min(3),
    tags: z.array(z.string()).min(1),
    kind: z.enum(["a", "b"]),
  });
  const issues = expectIssues(parseWith(schema, { n: 1, tags: [], kind: 3 }, { prefix: "body" }));
  assert.deepEqual(issues, [
    { field: "body.n", expected: "a number >= 3 (got a number out of range)" },
    { field: "body.tags", expected: "a list of >= 1 items (got an empty list)" },
    { field: "body.kind", expected: 'one of "a", "b" (got a number)' },
  ]);
});

Deno.test("formatZodIssues works on errors from any parse", () => {
  const result = z.strictObject({ a: z.string() }).safeParse({ a: 1, b: 2 });
  assert.equal(result.success, false);
  const issues = formatZodIssues(result.error!, "section");
  assert.deepEqual(issues.map((issue) => issue.field), ["section.a", "section.b"]);
});

Deno.test("formatIssueList puts one issue per line", () => {
  const text = formatIssueList([{ field: "a", expected: "x" }, { field: "b[0]", expected: "y" }]);
  assert.equal(text, "- a: x\n- b[0]: y");
});
