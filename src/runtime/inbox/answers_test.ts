import assert from "node:assert/strict";
import { parseAnswers } from "./answers.ts";

Deno.test("answers run to the next marker or the end, trimmed", () => {
  const answers = parseAnswers("Done with the run.\nANSWER Q1: 42 orders\nwait.\n\nANSWER Q2:   yes  ");
  assert.deepEqual([...answers], [[1, "42 orders\nwait."], [2, "yes"]]);
});

Deno.test("markers in odd places: mid-line, any case, spaced, out of order, repeated, empty", () => {
  const reply =
    "Summary. ANSWER Q2: second answer answer q1 : first   ANSWER  Q3:\nANSWER Q2: again ANSWER Q4:";
  const answers = parseAnswers(reply);
  assert.deepEqual([...answers], [[2, "second answer"], [1, "first"]]);
});

Deno.test("text that only looks like a marker is not one", () => {
  assert.equal(parseAnswers("REANSWER Q1: no. ANSWER Q: no. ANSWER Q0: zero. ANSWERQ1: no").size, 0);
  assert.equal(parseAnswers("ANSWER Q1 - missing colon").size, 0);
  assert.deepEqual([...parseAnswers("**ANSWER Q1:** bold")], [[1, "** bold"]]);
});
