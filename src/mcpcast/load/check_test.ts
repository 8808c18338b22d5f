import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { checkDocument } from "./check.ts";
import { scrubText } from "../_scrub.ts";

const LIMITS = { maxNodes: 2_000_000, maxDepth: 256 };

function assertMcpcastError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof McpcastError, String(error));
    assert.match(error.message, pattern);
    return true;
  });
}

Deno.test("scrubbing deletes C0 controls except newline and tab, DEL and C1, and mends lone surrogates", () => {
  assert.equal(scrubText("a\x00b\x1b[31mc\r\n\td\x7fe\x85f\x9f"), "ab[31mc\n\tdef");
  assert.equal(scrubText("x\ud800y\udc00"), "x\ufffdy\ufffd");
  assert.equal(scrubText("😀 ok"), "😀 ok");
  const clean = "nothing to do";
  assert.equal(scrubText(clean), clean);
});

Deno.test("every key and string value is scrubbed at any depth, in lists too", () => {
  const document = checkDocument({
    info: { title: "Evil\x1b]0;pwned\x07 API" },
    paths: { "/a\x00b": { get: { summary: "sum\u009bmary", tags: ["t\x08ag", 3] } } },
    "x-\x7fkey": [{ deep: [["\ud83dlone"]] }],
  }, LIMITS);
  assert.deepEqual(document, {
    info: { title: "Evil]0;pwned API" },
    paths: { "/ab": { get: { summary: "summary", tags: ["tag", 3] } } },
    "x-key": [{ deep: [["\ufffdlone"]] }],
  });
});

Deno.test("checking a document the caller owns copies it and leaves the original untouched", () => {
  const original = { info: { title: "T\x01" }, paths: {} };
  const checked = checkDocument(original, LIMITS, { copy: true });
  assert.equal(original.info.title, "T\x01");
  assert.equal((checked.info as { title: string }).title, "T");
  assert.notEqual(checked.info, original.info);
});

Deno.test("a key named __proto__ stays data and does not change the prototype", () => {
  const parsed = JSON.parse('{"paths": {}, "components": {"schemas": {"__proto__": {"type": "string"}}}}');
  for (const copy of [true, false]) {
    const checked = checkDocument(parsed, LIMITS, { copy });
    const schemas = (checked.components as Record<string, Record<string, unknown>>).schemas;
    assert.equal(Object.getPrototypeOf(schemas), Object.prototype);
    assert.deepEqual(Object.keys(schemas), ["__proto__"]);
  }
});

Deno.test("a non-mapping document and non-mapping info or paths are refused", () => {
  assertMcpcastError(() => checkDocument([1, 2], LIMITS), /^spec must be a mapping .*got list$/);
  assertMcpcastError(() => checkDocument("openapi", LIMITS), /got string$/);
  assertMcpcastError(
    () => checkDocument({ info: "x", paths: {} }, LIMITS),
    /^spec 'info' must be a mapping, got string$/,
  );
  assertMcpcastError(
    () => checkDocument({ paths: [] }, LIMITS),
    /^spec 'paths' must be a mapping, got list$/,
  );
});

Deno.test("the node budget counts every use of a shared value and stops early", () => {
  // An alias bomb as YAML produces it: each level refers to the one below ten times (10^12 uses).
  let level: unknown = ["lol"];
  for (let i = 0; i < 12; i++) level = Array.from({ length: 10 }, () => level);
  const started = performance.now();
  assertMcpcastError(
    () => checkDocument({ paths: {}, bomb: level }, LIMITS),
    /more than 2000000 values .*MCPCAST_MAX_SPEC_NODES/,
  );
  assert.ok(performance.now() - started < 5_000);
  assert.doesNotThrow(() => checkDocument({ paths: {}, a: [1, 2, 3] }, { maxNodes: 6, maxDepth: 256 }));
  assertMcpcastError(
    () => checkDocument({ paths: {}, a: [1, 2, 3, 4] }, { maxNodes: 6, maxDepth: 256 }),
    /6 values/,
  );
});

Deno.test("nesting deeper than the depth cap is refused, also for a cycle", () => {
  let deep: unknown = {};
  for (let i = 0; i < 300; i++) deep = { d: deep };
  assertMcpcastError(() => checkDocument({ paths: {}, deep }, LIMITS), /nested more than 256 levels/);
  // The document is level 1, so 255 nested lists under it reach exactly level 256.
  let fits: unknown = "leaf";
  for (let i = 0; i < 255; i++) fits = [fits];
  assert.doesNotThrow(() => checkDocument({ paths: {}, fits }, LIMITS));
  assertMcpcastError(() => checkDocument({ paths: {}, fits: [fits] }, LIMITS), /nested more than 256 levels/);
  const cycle: Record<string, unknown> = { paths: {} };
  cycle.self = cycle;
  assertMcpcastError(() => checkDocument(cycle, LIMITS, { copy: true }), /nested more than 256 levels/);
});
