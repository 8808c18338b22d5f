/**
 * The tool-surface report in `agentry mcpcast`'s summary (every conversion): the lines of
 * `renderSurfaceReport` under the summary, and the `surface` object of `--json`.
 *
 * @module
 */

import { renderSurfaceReport, type SurfaceReport } from "../../mcpcast/mod.ts";

/** The report's lines, indented under the summary. */
export function surfaceLines(report: SurfaceReport): string[] {
  return renderSurfaceReport(report).map((line) => `  ${line}`);
}

/** The `surface` object of `--json` (wire names). */
export function surfaceJson(report: SurfaceReport): Record<string, unknown> {
  return {
    mode: report.mode,
    plan_tools: report.planTools,
    tools: report.tools,
    tokens: report.tokens,
    meta_tokens: report.metaTokens,
    served_tokens: report.servedTokens,
    tool_description_share: report.toolDescriptionShare,
    parameter_description_share: report.parameterDescriptionShare,
    largest: report.largest.map((tool) => ({ name: tool.name, tokens: tool.tokens })),
    verdict: report.verdict,
    recommendations: report.recommendations,
  };
}
