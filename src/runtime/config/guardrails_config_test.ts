import assert from "node:assert/strict";
import { isGuardrailScanner } from "./guardrails_config.ts";
import { parseProcessConfig, parseSection } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

class Scanner {
  calls = 0;
  scanText(_text: string) {
    this.calls++;
    return [];
  }
}

Deno.test("guardrails are absent unless configured", () => {
  assert.equal(expectOk(parseProcessConfig({})).guardrails, undefined);
});

Deno.test("a scanner object is kept as the same object", () => {
  const scanner = new Scanner();
  const config = expectOk(parseProcessConfig({ guardrails: scanner }));
  assert.equal(config.guardrails, scanner);
  const snake = { check_input: (_text: string) => true };
  assert.equal(expectOk(parseSection("guardrails", snake)), snake);
});

Deno.test("isGuardrailScanner needs one of the scanning methods", () => {
  assert.equal(isGuardrailScanner(new Scanner()), true);
  assert.equal(isGuardrailScanner({ scan_text: () => [] }), true);
  assert.equal(isGuardrailScanner({ scanText: "not a function" }), false);
  assert.equal(isGuardrailScanner(null), false);
});

Deno.test("declarative guardrails get fail_open false and need detectors", () => {
  assert.deepEqual(expectOk(parseSection("guardrails", { detectors: ["injection", "pii"] })), {
    detectors: ["injection", "pii"],
    fail_open: false,
  });
  assert.match(
    issueAt(parseSection("guardrails", { detectors: [] }), "guardrails.detectors").expected,
    /non-empty list.*\(got an empty list\)/,
  );
  assert.match(
    issueAt(parseSection("guardrails", { detectors: ["toxicity"] }), "guardrails.detectors[0]").expected,
    /one of "injection"/,
  );
});

Deno.test("block patterns must compile as regular expressions", () => {
  assert.match(
    issueAt(
      parseSection("guardrails", { detectors: ["pii"], block_patterns: ["ok", "(unclosed"] }),
      "guardrails.block_patterns[1]",
    ).expected,
    /valid regular expression/,
  );
});

Deno.test("guardrails that are neither kind say what either would be", () => {
  const issue = issueAt(parseSection("guardrails", "strict"), "guardrails");
  assert.match(issue.expected, /scanner object .* or an object \{detectors/);
  assert.match(issue.expected, /\(got a string\)$/);
  assert.match(
    issueAt(parseSection("guardrails", { detect: ["pii"] }), "guardrails.detect").expected,
    /^no such field; allowed: detectors/,
  );
});
