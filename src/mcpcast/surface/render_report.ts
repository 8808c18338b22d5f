/**
 * The tool-surface report as lines for the command line (stderr), sizes as "~44.1k tokens".
 *
 * @module
 */

import type { SurfaceReport } from "./surface_report.ts";

/** `tokens` as people read it: `~850`, `~44.1k`, `~205k`. */
export function tokenText(tokens: number): string {
  if (tokens < 1_000) return `~${tokens}`;
  const thousands = tokens / 1_000;
  return `~${thousands < 100 ? thousands.toFixed(1).replace(/\.0$/, "") : Math.round(thousands)}k`;
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/**
 * The lines of `report`: tool count and list size in both modes, where the tokens go, the largest
 * tools, then each recommendation.
 *
 * @example
 * ```ts ignore
 * renderSurfaceReport(report);
 * // ["Tool surface: 107 tools, tools/list ~44.1k tokens (meta-tool mode: ~1k)", ...]
 * ```
 */
export function renderSurfaceReport(report: SurfaceReport): string[] {
  const served = report.mode === "meta" ? " [served: meta-tool mode]" : "";
  const lines = [
    `Tool surface: ${report.tools} tool${report.tools === 1 ? "" : "s"}, tools/list ` +
    `${tokenText(report.tokens)} tokens (meta-tool mode: ${tokenText(report.metaTokens)})${served}`,
    `  descriptions: tools ${percent(report.toolDescriptionShare)}, parameters ` +
    `${percent(report.parameterDescriptionShare)} of the list`,
  ];
  if (report.largest.length > 0) {
    lines.push(
      `  largest: ${report.largest.map((tool) => `${tool.name} ${tokenText(tool.tokens)}`).join(", ")}`,
    );
  }
  if (report.verdict !== "fits") {
    lines.push(`  ${report.verdict === "too-large" ? "too large" : "large"} for a model's context:`);
  }
  for (const advice of report.recommendations) lines.push(`  - ${advice}`);
  return lines;
}
