import assert from "node:assert/strict";
import { test } from "node:test";
import { confusedPairs, gradeFor, scoreResults, taskResult } from "./score.ts";
import type { EvalCall, EvalTaskResult } from "./types.ts";

function result(expected: string, calls: Array<[string, boolean, string?]>, error?: string): EvalTaskResult {
  const list: EvalCall[] = calls.map(([tool, ok, code]) => ({
    tool,
    arguments: {},
    ok,
    ...(code ? { error_code: code } : {}),
  }));
  return taskResult({ id: "t", prompt: "p", expected_tool: expected }, { calls: list, reply: "", error });
}

test("grades sit exactly on their boundaries", () => {
  assert.equal(gradeFor(1), "A");
  assert.equal(gradeFor(0.9), "A");
  assert.equal(gradeFor(0.899), "B");
  assert.equal(gradeFor(0.75), "B");
  assert.equal(gradeFor(0.749), "C");
  assert.equal(gradeFor(0.6), "C");
  assert.equal(gradeFor(0.599), "D");
  assert.equal(gradeFor(0.4), "D");
  assert.equal(gradeFor(0.399), "F");
  assert.equal(gradeFor(0), "F");
});

test("a run at exactly 90% success and selection scores 0.9 and grades A", () => {
  const results = [
    ...Array.from({ length: 9 }, () => result("get_pet", [["get_pet", true]])),
    result("get_pet", [["list_pets", true]]),
  ];
  const score = scoreResults(results, ["get_pet", "list_pets"]);
  assert.equal(score.score, 0.9);
  assert.equal(score.grade, "A");
});

test("scores on the B, C and D boundaries weigh success 0.6 and selection 0.4", () => {
  // 3 of 4 succeed, 3 of 4 first picks right: 0.75.
  const b = [
    ...Array.from({ length: 3 }, () => result("a", [["a", true]])),
    result("a", [["b", true]]),
  ];
  assert.deepEqual([scoreResults(b, ["a", "b"]).score, scoreResults(b, ["a", "b"]).grade], [0.75, "B"]);
  // All succeed, none picked first: 0.6.
  const c = [result("a", [["b", false], ["a", true]]), result("a", [["b", true], ["a", true]])];
  assert.deepEqual([scoreResults(c, ["a", "b"]).score, scoreResults(c, ["a", "b"]).grade], [0.6, "C"]);
  // None succeed, all picked first: 0.4.
  const d = [result("a", [["a", false, "UPSTREAM_ERROR"]]), result("a", [["a", false, "VALIDATION_ERROR"]])];
  assert.deepEqual([scoreResults(d, ["a"]).score, scoreResults(d, ["a"]).grade], [0.4, "D"]);
  assert.equal(scoreResults([result("a", [])], ["a"]).grade, "F");
});

test("a crashed task never succeeds, even after a good call", () => {
  const crashed = result("a", [["a", true]], "model failed");
  assert.equal(crashed.success, false);
  assert.equal(crashed.selectedFirst, true);
  const score = scoreResults([crashed, result("a", [["a", true]])], ["a"]);
  assert.equal(score.crashed, 1);
  assert.equal(score.succeeded, 1);
});

test("never-used, not-covered and the parameter error rate come from the calls", () => {
  const results = [
    result("get_pet", [["get_pet", false, "VALIDATION_ERROR"], ["get_pet", true]]),
    result("delete_pet", [["list_pets", true]]),
    result("create_pet", [], "crash"),
  ];
  const score = scoreResults(results, ["get_pet", "delete_pet", "list_pets", "create_pet", "update_pet"]);
  assert.deepEqual(score.neverUsed, ["delete_pet"]); // create_pet's only task crashed
  assert.deepEqual(score.notCovered, ["list_pets", "update_pet"]);
  assert.equal(score.paramErrorRate, 0.333);
});

test("confused pairs count wrong first picks, most common first", () => {
  const pairs = confusedPairs([
    result("get_pet", [["list_pets", true], ["get_pet", true]]),
    result("delete_pet", [["get_pet", true]]),
    result("delete_pet", [["get_pet", true]]),
    result("delete_pet", [["delete_pet", true]]),
    result("get_pet", [["get_pet", true]]),
    result("get_pet", []),
  ]);
  assert.deepEqual(pairs, [
    { expected: "delete_pet", called: "get_pet", count: 2, of: 3 },
    { expected: "get_pet", called: "list_pets", count: 1, of: 3 },
  ]);
});
