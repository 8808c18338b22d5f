/**
 * What `agentry mcpcast` shows: the review table, the summary after writing (human, on stderr) and
 * its `--json` form (on stdout).
 *
 * @module
 */

import {
  type DroppedOp,
  effectiveApproval,
  gatedTools,
  type McpcastPlan,
  type ToolPlan,
} from "../../mcpcast/mod.ts";
import { clipLine } from "./model_progress.ts";

/** Up to this many dropped operations are listed one per line; more are grouped by reason. */
export const DROPPED_LISTED = 12;
const GROUP_NAMES_SHOWN = 6;
const ROUTE_WIDTH = 60;
const REVIEW_DESCRIPTION = 60;

/** Where and what was written. */
export interface WriteOutcome {
  /** The output directory as shown to the user. */
  shownDir: string;
  /** The output directory, absolute. */
  outDir: string;
  /** Files written, relative to the output directory. */
  files: string[];
  /** Files left as they were (existing scaffold files, the user's own modules). */
  kept: string[];
  /** Generated files removed because the plan no longer needs them. */
  removed: string[];
  /** Whether only the plan was written (`--plan-only`). */
  planOnly: boolean;
}

/** `n` with thousands separators. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** The first line of `text` (spec or model text), without control characters, at most `width` long. */
function clip(text: string, width: number): string {
  return clipLine(text.split("\n")[0], width);
}

/** `METHOD /path` of the tool's first route, with `+N` when it has more. */
export function routeOf(tool: ToolPlan): string {
  const first = tool.routes[0];
  const more = tool.routes.length > 1 ? ` +${tool.routes.length - 1}` : "";
  return clip(`${first.method} ${first.path}`, ROUTE_WIDTH) + more;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column].length))
  );
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)];
}

/** The dropped operations: one per line when few, else grouped by reason (most common first). */
export function droppedLines(dropped: readonly DroppedOp[], indent = "  "): string[] {
  if (dropped.length <= DROPPED_LISTED) {
    return dropped.map((op) => `${indent}${op.operation_id}: ${op.reason}`);
  }
  const groups = new Map<string, string[]>();
  for (const op of dropped) groups.set(op.reason, [...(groups.get(op.reason) ?? []), op.operation_id]);
  return [...groups.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([reason, ids]) => {
      const shown = ids.slice(0, GROUP_NAMES_SHOWN).join(", ");
      const more = ids.length > GROUP_NAMES_SHOWN
        ? `, … (+${count(ids.length - GROUP_NAMES_SHOWN)} more)`
        : "";
      return `${indent}${reason} (${count(ids.length)}): ${shown}${more}`;
    });
}

/**
 * The review table (tool, risk, gated, route, description), then what is not exposed. With `notes`
 * (a curated plan: "merged 3 ops", "renamed from get_pet_by_id") a Note column comes before the
 * description.
 */
export function reviewLines(plan: McpcastPlan, notes?: Readonly<Record<string, string>>): string[] {
  const rows = plan.tools.map((tool) => [
    tool.name,
    tool.risk,
    tool.requires_approval ? "yes" : "",
    routeOf(tool),
    ...(notes === undefined ? [] : [notes[tool.name] ?? ""]),
    clip(tool.description, REVIEW_DESCRIPTION),
  ]);
  const header = ["Tool", "Risk", "Gated", "Route", ...(notes === undefined ? [] : ["Note"]), "Description"];
  const lines = plan.tools.length === 0
    ? ["No tools: nothing in this spec fits the profile."]
    : table(header, rows);
  if (plan.dropped.length > 0) {
    lines.push("", `Not exposed (${count(plan.dropped.length)}):`, ...droppedLines(plan.dropped));
  }
  return lines;
}

/** `kept N tools (G approval-gated), D dropped`. */
export function countsLine(plan: McpcastPlan): string {
  const gated = gatedTools(plan).length;
  return `${plural(plan.tools.length, "tool")} kept (${count(gated)} approval-gated), ` +
    `${count(plan.dropped.length)} operation${plan.dropped.length === 1 ? "" : "s"} dropped`;
}

/** Files as a short list: top-level files by name, folders with their file counts. */
export function filesLine(files: readonly string[]): string {
  const top: string[] = [];
  const folders = new Map<string, number>();
  for (const file of files) {
    const slash = file.lastIndexOf("/");
    if (slash === -1) top.push(file);
    else folders.set(file.slice(0, slash + 1), (folders.get(file.slice(0, slash + 1)) ?? 0) + 1);
  }
  const grouped = [...folders.entries()].sort(([a], [b]) => a.localeCompare(b))
    .map(([folder, n]) => `${folder} (${plural(n, "file")})`);
  return [...top, ...grouped].join(", ");
}

function isPlainRemote(url: string): boolean {
  const parsed = URL.parse(url);
  if (parsed === null || parsed.protocol !== "http:") return false;
  return !["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname);
}

/** Hosts reached over plain http to a non-loopback host (credentials are refused there at run time). */
export function plainHttpHosts(plan: McpcastPlan): string[] {
  const urls = [plan.api.base_url, ...plan.tools.flatMap((tool) => tool.routes.map((r) => r.base_url ?? ""))];
  return [...new Set(urls.filter(isPlainRemote).map((url) => new URL(url).host))];
}

/** The human summary after writing. */
export function summaryLines(plan: McpcastPlan, outcome: WriteOutcome): string[] {
  const lines = [
    `mcpcast: ${plan.api.name} → ${outcome.shownDir}${outcome.planOnly ? " (plan only)" : ""}`,
    `  ${countsLine(plan)}; profile ${plan.profile}, auth ${plan.api.auth}` +
    (gatedTools(plan).length > 0 ? `, approval ${effectiveApproval(plan.api)}` : ""),
  ];
  if (plan.dropped.length > 0) lines.push("  dropped:", ...droppedLines(plan.dropped, "    "));
  lines.push(`  files written (${count(outcome.files.length)}): ${filesLine(outcome.files)}`);
  if (outcome.kept.length > 0) lines.push(`  kept as they were: ${outcome.kept.join(", ")}`);
  if (outcome.removed.length > 0) {
    lines.push(`  removed (no longer in the plan): ${outcome.removed.join(", ")}`);
  }
  const plain = plainHttpHosts(plan);
  if (plain.length > 0 && plan.api.auth !== "none") {
    lines.push(
      `  warning: ${plain.join(", ")} ${
        plain.length === 1 ? "is" : "are"
      } plain http: the server refuses to ` +
        "send credentials there (UPSTREAM_INSECURE); use an https base URL (MCPCAST_BASE_URL) if there is one",
    );
  }
  return lines;
}

/** The `--json` summary: one object. */
export function summaryJson(plan: McpcastPlan, outcome: WriteOutcome): Record<string, unknown> {
  return {
    api: plan.api.name,
    out_dir: outcome.outDir,
    plan_only: outcome.planOnly,
    profile: plan.profile,
    auth: plan.api.auth,
    approval: effectiveApproval(plan.api),
    base_url: plan.api.base_url,
    counts: { kept: plan.tools.length, gated: gatedTools(plan).length, dropped: plan.dropped.length },
    tools: plan.tools.map((tool) => ({
      name: tool.name,
      risk: tool.risk,
      requires_approval: tool.requires_approval,
      routes: tool.routes.map((route) => `${route.method} ${route.path}`),
    })),
    dropped: plan.dropped.map((op) => ({ operation_id: op.operation_id, reason: op.reason })),
    files: outcome.files,
    kept: outcome.kept,
    removed: outcome.removed,
  };
}
