import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { checkDocument } from "./check.ts";
import { parseSpecText } from "./text.ts";

const OPTIONS = { label: "<inline>", maxNodes: 2_000_000 };

function assertMcpcastError(fn: () => unknown, pattern: RegExp): McpcastError {
  let caught: McpcastError | undefined;
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof McpcastError, String(error));
    assert.match(error.message, pattern);
    caught = error;
    return true;
  });
  return caught!;
}

Deno.test("text starting with { is JSON and anything else is YAML", () => {
  assert.deepEqual(parseSpecText('  {"openapi": "3.1.0", "paths": {}}', OPTIONS), {
    openapi: "3.1.0",
    paths: {},
  });
  assert.deepEqual(parseSpecText("openapi: 3.1.0\npaths:\n  /a: {}\n", OPTIONS), {
    openapi: "3.1.0",
    paths: { "/a": {} },
  });
  assert.deepEqual(parseSpecText('\ufeff{"a": 1}', OPTIONS), { a: 1 });
});

Deno.test("YAML uses the core schema: response codes become string keys, dates stay strings", () => {
  const parsed = parseSpecText(
    "responses:\n  200: {description: ok}\nwhen: 2024-01-02\nflag: yes\n",
    OPTIONS,
  );
  assert.deepEqual(parsed, { responses: { "200": { description: "ok" } }, when: "2024-01-02", flag: "yes" });
});

Deno.test("YAML tags beyond plain data build nothing but strings", () => {
  const parsed = parseSpecText(
    "a: !!python/object/apply:os.system ['echo pwned']\nb: !!binary aGVsbG8=\nc: !custom 3\nd: !!set {x: null}\n",
    OPTIONS,
  ) as Record<string, unknown>;
  assert.deepEqual(parsed.b, "aGVsbG8=");
  assert.equal(parsed.c, "3");
  assert.deepEqual(parsed.a, ["echo pwned"]);
  assert.deepEqual(parsed.d, { x: null });
});

Deno.test("a duplicate key in YAML is accepted and the last value wins, as with PyYAML", () => {
  assert.deepEqual(parseSpecText("a: 1\na: 2\n", OPTIONS), { a: 2 });
});

Deno.test("invalid JSON and YAML are reported with a position and without the offending text", () => {
  const json = assertMcpcastError(
    () => parseSpecText('{\n  "title": "SECRET-VALUE" oops\n}', { ...OPTIONS, label: "spec.json" }),
    /^spec spec\.json is not valid JSON at line 2, column \d+$/,
  );
  assert.doesNotMatch(json.message, /SECRET/);
  const yaml = assertMcpcastError(
    () => parseSpecText("openapi: 3.0.0\npaths:\n  - a\n  b: SECRET-VALUE\n", OPTIONS),
    /^spec <inline> is not valid YAML at line \d+, column \d+: /,
  );
  assert.doesNotMatch(yaml.message, /SECRET/);
  assertMcpcastError(() => parseSpecText("a: 1\n---\nb: 2\n", OPTIONS), /not valid YAML/);
});

Deno.test("a YAML alias bomb is refused by the node budget", () => {
  const lines = [
    "openapi: 3.0.0",
    "paths: {}",
    'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]',
  ];
  for (let i = 1; i <= 9; i++) {
    lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(", ")}]`);
  }
  const text = lines.join("\n") + "\n";
  const started = performance.now();
  // Whichever check meets it first — while converting aliases or while counting afterwards — the
  // message names the node budget.
  assertMcpcastError(
    () => checkDocument(parseSpecText(text, OPTIONS), { maxNodes: 2_000_000, maxDepth: 256 }),
    /MCPCAST_MAX_SPEC_NODES/,
  );
  assert.ok(performance.now() - started < 5_000);
  // A small bomb that the alias pass lets through is still stopped by the count after parsing.
  const small = "paths: {}\na: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: [*a, *a, *a, *a, *a]\n";
  const parsed = parseSpecText(small, { ...OPTIONS, maxNodes: 60 });
  assertMcpcastError(() => checkDocument(parsed, { maxNodes: 60, maxDepth: 256 }), /more than 60 values/);
  assert.doesNotThrow(() => checkDocument(parsed, { maxNodes: 70, maxDepth: 256 }));
});

Deno.test("YAML nested too deeply for the parser is reported as such, not as a crash", () => {
  const text = "a: " + "[".repeat(20_000) + "]".repeat(20_000) + "\n";
  assertMcpcastError(() => parseSpecText(text, OPTIONS), /^spec <inline> is nested too deeply to parse$/);
});
