/**
 * The report as Markdown (`eval/report.md`): the headline with the grade, the metrics, the fixes
 * (`✗` problems, `•` advice) and one table row per task with its calls (`a → b`, failed calls marked
 * `✗`) and result (`✓` succeeded, `✗` failed, `error` crashed).
 *
 * @module
 */

import type { EvalReport, EvalTaskResult } from "./types.ts";

/** Longest task prompt shown in the table. */
const PROMPT_MAX = 80;

function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** `text` safe inside a Markdown table cell: one line, pipes escaped, clipped. */
function cell(text: string, max = Number.POSITIVE_INFINITY): string {
  const line = text.replace(/\s+/g, " ").trim();
  const clipped = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  return clipped.replaceAll("\\", "\\\\").replaceAll("|", "\\|");
}

function callsCell(result: EvalTaskResult): string {
  if (result.calls.length === 0) return "—";
  return result.calls.map((call) => `${cell(call.tool)}${call.ok ? "" : " ✗"}`).join(" → ");
}

function resultCell(result: EvalTaskResult): string {
  if (result.error !== undefined) return "error";
  return result.success ? "✓" : "✗";
}

/** The headline: `# Agent Readiness: B (15/20 tasks succeeded)`. */
export function evalHeadline(report: EvalReport): string {
  return `# Agent Readiness: ${report.grade} (${report.succeeded}/${report.total} tasks succeeded)`;
}

/**
 * The report as Markdown.
 *
 * @example
 * ```ts ignore
 * await Deno.writeTextFile("report.md", renderEvalMarkdown(report));
 * ```
 */
export function renderEvalMarkdown(report: EvalReport): string {
  const lines = [
    evalHeadline(report),
    "",
    `- Score: ${report.score.toFixed(3)} (0.6 × task success ${percent(report.successRate)} + 0.4 × ` +
    `correct tool first ${percent(report.selectionRate)})`,
    `- Correct tool selected first: ${percent(report.selectionRate)}`,
    `- Parameter error rate: ${percent(report.paramErrorRate)}`,
    `- Never used: ${report.neverUsed.length}`,
    `- Not covered: ${report.notCovered.length}`,
    `- Tool list: ${report.toolCount} tools, ~${report.toolListTokens} tokens`,
    `- Upstream requests: ${report.liveRequests} live, ${report.mockedRequests} mocked, ` +
    `${report.unmatched.length} unmatched`,
    "",
    "## Fixes",
    "",
  ];
  if (report.fixes.length === 0) lines.push("Nothing to fix.");
  for (const fix of report.fixes) lines.push(`- ${fix.kind === "problem" ? "✗" : "•"} ${fix.text}`);
  lines.push("", "## Tasks", "", "| # | Task | Expected | Called | Result |", "|---|---|---|---|---|");
  for (const result of report.results) {
    const { task } = result;
    lines.push(
      `| ${cell(task.id)} | ${cell(task.prompt, PROMPT_MAX)} | ${cell(task.expected_tool)} | ` +
        `${callsCell(result)} | ${resultCell(result)} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
