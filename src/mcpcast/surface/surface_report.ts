/**
 * The tool-surface report: how much a model must read before it can call any tool of the generated
 * server. The `tools/list` answer is measured for real: the server the plan describes is built and
 * listed through an in-memory MCP client, in direct and in meta-tool mode.
 *
 * Recommendations, by the estimated tokens of the list the server would answer (in the plan's mode):
 *
 * | Tokens listed | Verdict | Proposed |
 * |---|---|---|
 * | up to 10,000 | `fits` | nothing |
 * | 10,001 to 30,000 | `large` | compact descriptions when descriptions in input schemas are a quarter or more of the list; curation |
 * | over 30,000 | `too-large` | meta-tool mode (`api.tool_mode: meta`), and compact descriptions or curation |
 *
 * More than 50 tools also proposes curation: selection accuracy drops with many look-alike tools,
 * whatever their size.
 *
 * @module
 */

import { createTestClient } from "../../mcp/mod.ts";
import { estimateTokens } from "../model/mod.ts";
import type { McpcastPlan, ToolMode } from "../plan/mod.ts";
import { buildPlanServer } from "../runtime/mod.ts";

/** Above this many tokens the list is `large`. */
export const SURFACE_TOKENS_LARGE = 10_000;
/** Above this many tokens the list is `too-large` and meta-tool mode is proposed. */
export const SURFACE_TOKENS_TOO_LARGE = 30_000;
/** Above this many tools curation is proposed. */
export const SURFACE_TOOLS_MANY = 50;
/** How many of the largest tools the report names. */
const LARGEST_COUNT = 5;
/** Share of parameter descriptions from which compact descriptions are proposed. */
const DESCRIPTION_SHARE_COMPACT = 0.25;

/** One tool's share of the list. */
export interface ToolSize {
  /** Tool name. */
  name: string;
  /** Estimated tokens of its entry in the list. */
  tokens: number;
}

/** How a list's size compares to a model's context (see the module doc). */
export type SurfaceVerdict = "fits" | "large" | "too-large";

/** What {@linkcode surfaceReport} measured. */
export interface SurfaceReport {
  /** The plan's tool mode (what the server serves). */
  mode: ToolMode;
  /** Tools the plan defines. */
  planTools: number;
  /** Tools a direct-mode server lists (plan tools and the server's own, such as the approval queue's). */
  tools: number;
  /** Estimated tokens of the direct-mode `tools/list` result (its JSON). */
  tokens: number;
  /** Estimated tokens of the meta-tool-mode `tools/list` result. */
  metaTokens: number;
  /** Estimated tokens of the list the plan's own mode serves (`tokens` or `metaTokens`). */
  servedTokens: number;
  /** Share (0 to 1) of the direct list's characters in tool descriptions. */
  toolDescriptionShare: number;
  /** Share (0 to 1) of the direct list's characters in descriptions inside input schemas (the parameters'). */
  parameterDescriptionShare: number;
  /** The largest tools of the direct list, largest first (at most five). */
  largest: ToolSize[];
  /** How the served list's size compares to a model's context. */
  verdict: SurfaceVerdict;
  /** What to do about it, one sentence each; empty when nothing is needed. */
  recommendations: string[];
}

/** A listed tool, as much of it as the report reads. */
interface ListedTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/** Characters of every `description` string inside `schema` (JSON-encoded, as listed). */
function descriptionChars(schema: unknown): number {
  if (Array.isArray(schema)) return schema.reduce((sum: number, item) => sum + descriptionChars(item), 0);
  if (typeof schema !== "object" || schema === null) return 0;
  let total = 0;
  for (const [key, value] of Object.entries(schema)) {
    total += key === "description" && typeof value === "string"
      ? JSON.stringify(value).length
      : descriptionChars(value);
  }
  return total;
}

const REPORT_KEY = "mcpcast-surface-report";

/** The `tools/list` result the server of `plan` answers (api-key servers get a throwaway caller). */
async function listed(plan: McpcastPlan): Promise<ListedTool[]> {
  const keys = JSON.stringify({ [REPORT_KEY]: { client_id: "surface", tenant_id: "surface" } });
  const server = buildPlanServer(plan, {
    env: (name) => name === "MCPCAST_CLIENT_KEYS" ? keys : undefined,
    fetch: () => Promise.reject(new Error("the surface report never calls the upstream API")),
    operatorLog: () => undefined,
  });
  await using client = await createTestClient(server, { headers: { "x-api-key": REPORT_KEY } });
  return await client.listTools();
}

function verdictOf(tokens: number): SurfaceVerdict {
  return tokens > SURFACE_TOKENS_TOO_LARGE ? "too-large" : tokens > SURFACE_TOKENS_LARGE ? "large" : "fits";
}

function recommend(report: Omit<SurfaceReport, "recommendations">): string[] {
  const out: string[] = [];
  const compact = report.parameterDescriptionShare >= DESCRIPTION_SHARE_COMPACT;
  if (report.verdict === "too-large" && report.mode === "direct") {
    out.push(
      `Serve in meta-tool mode (api.tool_mode: meta): the list shrinks to ~${report.metaTokens} tokens ` +
        "and every tool stays reachable through search_tools, describe_tool and invoke_tool.",
    );
  }
  if (report.verdict !== "fits" && compact) {
    out.push(
      `Use compact descriptions (compactPlan): parameter descriptions are ` +
        `${Math.round(report.parameterDescriptionShare * 100)}% of the list.`,
    );
  }
  if (report.verdict !== "fits" || report.planTools > SURFACE_TOOLS_MANY) {
    out.push(
      `Curate the tools (a smaller, task-shaped set) or narrow the spec: ${report.planTools} tools ` +
        `make a model choose among many look-alikes.`,
    );
  }
  return out;
}

/**
 * Measures the tool surface of `plan`: builds its server (and the same in meta-tool mode), lists the
 * tools through an in-memory MCP client, and estimates tokens of the JSON result. The upstream API is
 * never called.
 *
 * @example
 * ```ts ignore
 * import { renderSurfaceReport, surfaceReport } from "@agentry/agentry/mcpcast";
 * for (const line of renderSurfaceReport(await surfaceReport(plan))) console.error(line);
 * ```
 */
export async function surfaceReport(plan: McpcastPlan): Promise<SurfaceReport> {
  const mode: ToolMode = plan.api.tool_mode ?? "direct";
  const direct = await listed(
    mode === "direct" ? plan : { ...plan, api: { ...plan.api, tool_mode: undefined } },
  );
  const meta = await listed({ ...plan, api: { ...plan.api, tool_mode: "meta" } });
  const text = JSON.stringify({ tools: direct });
  const chars = text.length || 1;
  const toolChars = direct.reduce((sum, tool) => sum + JSON.stringify(tool.description ?? "").length, 0);
  const paramChars = direct.reduce((sum, tool) => sum + descriptionChars(tool.inputSchema), 0);
  const tokens = estimateTokens(text);
  const metaTokens = estimateTokens(JSON.stringify({ tools: meta }));
  const base = {
    mode,
    planTools: plan.tools.length,
    tools: direct.length,
    tokens,
    metaTokens,
    servedTokens: mode === "meta" ? metaTokens : tokens,
    toolDescriptionShare: toolChars / chars,
    parameterDescriptionShare: paramChars / chars,
    largest: direct.map((tool) => ({ name: tool.name, tokens: estimateTokens(JSON.stringify(tool)) }))
      .sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : 1)).slice(0, LARGEST_COUNT),
    verdict: verdictOf(mode === "meta" ? metaTokens : tokens),
  };
  return { ...base, recommendations: recommend(base) };
}
