/**
 * What `agentry mcpcast` shows about model work: the review's notes on curated tools ("merged N
 * ops", "renamed from <derived>"), the evaluation's terminal summary (headline, fixes, report path)
 * and the `curation` and `eval` objects of `--json`.
 *
 * @module
 */

import { relative } from "node:path";
import type { CurationResult, EvalReport, McpcastPlan } from "../../mcpcast/mod.ts";
import { clipLine } from "./model_progress.ts";

/**
 * Tool name → its note in the review of a curated plan: `merged N ops` for a tool serving several
 * operations, `renamed from <derived>` for one the model renamed; tools kept as derived have none.
 */
export function curationNotes(
  plan: McpcastPlan,
  curation: CurationResult,
  derived: ReadonlyMap<string, string>,
): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const tool of plan.tools) {
    const operations = curation.renamed[tool.name] ?? tool.routes.map((route) => route.operation_id);
    if (operations.length > 1) notes[tool.name] = `merged ${operations.length} ops`;
    else {
      const from = derived.get(operations[0]);
      if (from !== undefined && from !== tool.name) notes[tool.name] = `renamed from ${from}`;
    }
  }
  return notes;
}

/** The lines about curation in the summary: attempts, and sentences removed on the last attempt. */
export function curationLines(curation: CurationResult): string[] {
  const attempts = `${curation.attempts} attempt${curation.attempts === 1 ? "" : "s"}`;
  const lines = [`  curated by the model in ${attempts}`];
  if (curation.removedSentences.length > 0) {
    lines.push(
      `  removed ${curation.removedSentences.length} sentence(s) naming tools the server will not have:`,
      ...curation.removedSentences.slice(0, 5).map((sentence) => `    ${clipLine(sentence)}`),
    );
  }
  return lines;
}

/** The `curation` object of `--json`. */
export function curationJson(curation: CurationResult): Record<string, unknown> {
  return {
    attempts: curation.attempts,
    violations: curation.violations,
    merged: Object.fromEntries(Object.entries(curation.renamed).filter(([, ops]) => ops.length > 1)),
    removed_sentences: curation.removedSentences,
  };
}

/** Where the evaluation wrote its files (absolute), as the summary shows them. */
export interface EvalOutcome {
  /** The report. */
  report: EvalReport;
  /** `eval/tasks.yaml`, `eval/report.json`, `eval/report.md`, absolute. */
  files: string[];
}

/** The evaluation's terminal summary: headline, metrics line, fixes, the report's path. */
export function evalLines(outcome: EvalOutcome, outDir: string, shownDir: string): string[] {
  const { report } = outcome;
  const percent = (rate: number) => `${Math.round(rate * 100)}%`;
  const lines = [
    `Agent Readiness: ${report.grade} (${report.succeeded}/${report.total} tasks succeeded)`,
    `  score ${report.score.toFixed(3)}: task success ${percent(report.successRate)}, correct tool first ` +
    `${percent(report.selectionRate)}, parameter errors ${percent(report.paramErrorRate)}`,
  ];
  for (const fix of report.fixes) {
    lines.push(`  ${fix.kind === "problem" ? "✗" : "•"} ${clipLine(fix.text, 160)}`);
  }
  const files = outcome.files.map((file) => `${shownDir.replace(/\/$/, "")}/${relative(outDir, file)}`);
  lines.push(`  report: ${files.join(", ")}`);
  return lines;
}

/** The `eval` object of `--json`. */
export function evalJson(outcome: EvalOutcome): Record<string, unknown> {
  const { report } = outcome;
  return {
    grade: report.grade,
    score: report.score,
    tasks: report.total,
    succeeded: report.succeeded,
    success_rate: report.successRate,
    selection_rate: report.selectionRate,
    param_error_rate: report.paramErrorRate,
    tool_list_tokens: report.toolListTokens,
    files: outcome.files,
  };
}
