/**
 * Scoring an evaluation (pure): a task succeeds when it did not crash and some call to its expected
 * tool returned without error; the tool was selected correctly when the first call went to it.
 * Score = 0.6 × success rate + 0.4 × selection rate, rounded to 3 decimals; grades A ≥ 0.9, B ≥ 0.75,
 * C ≥ 0.6, D ≥ 0.4, else F.
 *
 * @module
 */

import type { ConfusedPair, EvalCall, EvalGrade, EvalReport, EvalTask, EvalTaskResult } from "./types.ts";

/** Weight of the success rate in the score (the rest is the selection rate). */
export const SUCCESS_WEIGHT = 0.6;
/** Weight of the selection rate in the score. */
export const SELECTION_WEIGHT = 0.4;

const GRADES: ReadonlyArray<readonly [number, EvalGrade]> = [[0.9, "A"], [0.75, "B"], [0.6, "C"], [0.4, "D"]];

/**
 * The letter grade of `score`.
 *
 * @example
 * ```ts
 * import { gradeFor } from "./score.ts";
 * gradeFor(0.9); // "A"
 * gradeFor(0.899); // "B"
 * ```
 */
export function gradeFor(score: number): EvalGrade {
  for (const [floor, grade] of GRADES) if (score >= floor) return grade;
  return "F";
}

/** `value` rounded to 3 decimals. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The result of one task from its calls and crash (if any). */
export function taskResult(
  task: EvalTask,
  run: { calls: EvalCall[]; reply: string; error?: string },
): EvalTaskResult {
  const success = run.error === undefined &&
    run.calls.some((call) => call.tool === task.expected_tool && call.ok);
  const selectedFirst = run.calls[0]?.tool === task.expected_tool;
  return {
    task,
    calls: run.calls,
    success,
    selectedFirst,
    reply: run.reply,
    ...(run.error === undefined ? {} : { error: run.error }),
  };
}

/** The metrics of an evaluation: the report's scoring fields. */
export type EvalScore = Pick<
  EvalReport,
  | "score"
  | "grade"
  | "succeeded"
  | "crashed"
  | "successRate"
  | "selectionRate"
  | "paramErrorRate"
  | "neverUsed"
  | "notCovered"
  | "confusedPairs"
>;

/** Scores `results` over the tools the server listed. */
export function scoreResults(results: readonly EvalTaskResult[], tools: readonly string[]): EvalScore {
  const total = results.length;
  const succeeded = results.filter((result) => result.success).length;
  const selected = results.filter((result) => result.selectedFirst).length;
  const calls = results.flatMap((result) => result.calls);
  const paramErrors = calls.filter((call) => call.error_code === "VALIDATION_ERROR").length;
  const successRate = total === 0 ? 0 : succeeded / total;
  const selectionRate = total === 0 ? 0 : selected / total;
  const score = round3(SUCCESS_WEIGHT * successRate + SELECTION_WEIGHT * selectionRate);
  const called = new Set(calls.map((call) => call.tool));
  const ran = results.filter((result) => result.error === undefined);
  const targeted = [...new Set(ran.map((result) => result.task.expected_tool))];
  const expected = new Set(results.map((result) => result.task.expected_tool));
  return {
    grade: gradeFor(score),
    score,
    succeeded,
    crashed: total - ran.length,
    successRate: round3(successRate),
    selectionRate: round3(selectionRate),
    paramErrorRate: round3(calls.length === 0 ? 0 : paramErrors / calls.length),
    neverUsed: targeted.filter((tool) => !called.has(tool)),
    notCovered: tools.filter((tool) => !expected.has(tool)),
    confusedPairs: confusedPairs(results),
  };
}

/** Wrong first picks counted per (expected, called) pair, most common first, ties in order seen. */
export function confusedPairs(results: readonly EvalTaskResult[]): ConfusedPair[] {
  const pairs = new Map<string, ConfusedPair>();
  const expectedCount = new Map<string, number>();
  for (const { task } of results) {
    expectedCount.set(task.expected_tool, (expectedCount.get(task.expected_tool) ?? 0) + 1);
  }
  for (const result of results) {
    const first = result.calls[0]?.tool;
    const expected = result.task.expected_tool;
    if (first === undefined || first === expected) continue;
    const key = JSON.stringify([expected, first]);
    const pair = pairs.get(key) ??
      { expected, called: first, count: 0, of: expectedCount.get(expected) ?? 0 };
    pair.count++;
    pairs.set(key, pair);
  }
  return [...pairs.values()].sort((a, b) => b.count - a.count);
}
