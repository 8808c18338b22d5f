import assert from "node:assert/strict";
import {
  canonicalJson,
  detectEmpty,
  detectErrorRate,
  detectLoop,
  detectStuck,
  isEmptyReply,
  observeCall,
} from "./detectors.ts";

const call = (tool: string, args: Record<string, unknown> = {}) => observeCall(tool, args);

Deno.test("canonical JSON sorts keys at every depth, so key order does not make calls differ", () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [1, { f: 1, e: 2 }], c: null } }),
    '{"a":{"c":null,"d":[1,{"e":2,"f":1}]},"b":1}',
  );
  assert.equal(call("t", { a: 1, b: 2 }).key, call("t", { b: 2, a: 1 }).key);
  assert.notEqual(call("t", { a: 1 }).key, call("u", { a: 1 }).key);
});

Deno.test("stuck needs the last threshold calls to be the same tool with the same arguments", () => {
  const same = [call("get", { id: 1 }), call("get", { id: 1 })];
  assert.equal(detectStuck(same, 3), undefined);
  const third = [...same, call("get", { id: 1 })];
  assert.deepEqual(detectStuck(third, 3)?.details, { tool: "get", repeats: 3 });
  assert.equal(detectStuck([...same, call("get", { id: 2 })], 3), undefined);
  assert.equal(detectStuck([call("x"), ...same], 3), undefined);
  assert.equal(detectStuck([call("x"), ...same], 2)?.type, "stuck");
});

Deno.test("loop finds a block of calls repeated back to back, but not one call repeated or varied work", () => {
  const a = call("search", { q: "x" });
  const b = call("read", { id: 1 });
  const cycle = [a, b, a, b];
  assert.deepEqual(detectLoop(cycle, { window: 20, minRepeats: 2 })?.details, {
    pattern: ["search", "read"],
    pattern_length: 2,
    repeats: 2,
  });
  assert.equal(detectLoop(cycle, { window: 20, minRepeats: 3 }), undefined);
  assert.equal(detectLoop([...cycle, a, b], { window: 20, minRepeats: 3 })?.details.repeats, 3);
  // Fewer than four calls in the window: nothing to look at.
  assert.equal(detectLoop([a, b, a], { window: 20, minRepeats: 2 }), undefined);
  // The window only sees the last calls.
  assert.equal(
    detectLoop([...cycle, call("c"), call("d"), call("e")], { window: 4, minRepeats: 2 }),
    undefined,
  );
  // Same tools, different arguments: work, not a loop.
  const work = [a, b, call("search", { q: "y" }), call("read", { id: 2 })];
  assert.equal(detectLoop(work, { window: 20, minRepeats: 2 }), undefined);
  // One call repeated is stuck's business.
  assert.equal(detectLoop([a, a, a, a], { window: 20, minRepeats: 2 }), undefined);
  // A three-call cycle.
  const c = call("write", { v: 1 });
  assert.deepEqual(detectLoop([c, a, b, c, a, b, c], { window: 20, minRepeats: 2 })?.details.pattern, [
    "search",
    "read",
    "write",
  ]);
});

Deno.test("a reply is empty when it has at most empty_max_chars characters after trimming", () => {
  assert.equal(isEmptyReply("  \n\t ", 0), true);
  assert.equal(isEmptyReply(null, 0), true);
  assert.equal(isEmptyReply("ok", 0), false);
  assert.equal(isEmptyReply("  ok  ", 2), true);
  assert.equal(isEmptyReply("okay", 2), false);
  assert.equal(detectEmpty(2, 3), undefined);
  assert.equal(detectEmpty(3, 3)?.type, "empty_response");
});

Deno.test("error rate counts failed runs over a full window only", () => {
  const opts = { window: 4, threshold: 0.5 };
  assert.equal(detectErrorRate([true, true, true], opts), undefined);
  assert.deepEqual(detectErrorRate([false, true, false, true], opts)?.details, {
    failed_runs: 2,
    window: 4,
    rate: 0.5,
  });
  assert.equal(detectErrorRate([true, true, true, false, false, false], opts), undefined); // last 4: one failed
});
