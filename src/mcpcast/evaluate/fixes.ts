/**
 * What to change after an evaluation, most urgent first: runs that broke (crashes, refused
 * credentials, insecure transport, requests no route serves), then what confused the agent (tools
 * picked for one another, identifiers it made up, parameters it got wrong), then coverage (tools never
 * used, tools no task tried, tools without an example).
 *
 * @module
 */

import type { McpcastPlan } from "../plan/mod.ts";
import type { EvalScore } from "./score.ts";
import type { EvalCall, EvalFix, EvalTaskResult } from "./types.ts";

/** Most unmatched requests and tool names listed in one fix. */
const UNMATCHED_SHOWN = 4;
const TOOLS_SHOWN = 8;

const problem = (text: string): EvalFix => ({ kind: "problem", text });
const advice = (text: string): EvalFix => ({ kind: "advice", text });

function names(tools: readonly string[], max = TOOLS_SHOWN): string {
  const shown = tools.slice(0, max).map((tool) => `\`${tool}\``).join(", ");
  return tools.length > max ? `${shown} and ${tools.length - max} more` : shown;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function upstreamAuthFailed(call: EvalCall): boolean {
  return call.error_code === "UPSTREAM_AUTH_MISSING" || call.error_code === "UPSTREAM_AUTH_INVALID" ||
    (call.error_code === "UPSTREAM_ERROR" && (call.status === 401 || call.status === 403));
}

/** Tools with calls matching `test`, by how many, in order seen. */
function countByTool(calls: readonly EvalCall[], test: (call: EvalCall) => boolean): Map<string, number> {
  const out = new Map<string, number>();
  for (const call of calls) if (test(call)) out.set(call.tool, (out.get(call.tool) ?? 0) + 1);
  return out;
}

function breakage(results: readonly EvalTaskResult[], unmatched: readonly string[]): EvalFix[] {
  const out: EvalFix[] = [];
  const calls = results.flatMap((result) => result.calls);
  const crashed = results.filter((result) => result.error !== undefined);
  if (crashed.length > 0) {
    out.push(problem(`${plural(crashed.length, "task")} crashed; the first: ${crashed[0].error}`));
  }
  const refused = calls.filter((call) => call.error_code === "AUTHENTICATION_ERROR").length;
  if (refused > 0) {
    out.push(problem(
      `The server refused ${plural(refused, "call")} as unauthenticated: pass the MCP headers it expects ` +
        "in MCPCAST_EVAL_HEADERS (a JSON object) or the `headers` option.",
    ));
  }
  const upstreamAuth = calls.filter(upstreamAuthFailed).length;
  if (upstreamAuth > 0) {
    out.push(problem(
      `${plural(upstreamAuth, "call")} had no upstream credential the API accepted: set ` +
        "MCPCAST_EVAL_AUTHORIZATION to a real credential for the plan's slot (for live reads).",
    ));
  }
  if (calls.some((call) => call.error_code === "UPSTREAM_INSECURE")) {
    out.push(problem(
      "Calls were refused for sending a credential over plain http: use an https base URL, or " +
        "MCPCAST_ALLOW_INSECURE_HTTP=1 for a test API you trust.",
    ));
  }
  if (unmatched.length > 0) {
    const shown = unmatched.slice(0, UNMATCHED_SHOWN).map((entry) => `\`${entry}\``).join(", ");
    const more = unmatched.length > UNMATCHED_SHOWN ? ` and ${unmatched.length - UNMATCHED_SHOWN} more` : "";
    out.push(problem(
      `No tool route matched ${shown}${more} (answered 502): check MCPCAST_BASE_URL and the base path.`,
    ));
  }
  return out;
}

/** Visible parameters of `tool` with neither a description nor a value in the example. */
function undocumented(plan: McpcastPlan, toolName: string): string[] {
  const tool = plan.tools.find((candidate) => candidate.name === toolName);
  if (tool === undefined) return [];
  return Object.entries(tool.params)
    .filter(([name, param]) =>
      !param.hidden && param.description.trim() === "" &&
      !(tool.example !== null && Object.hasOwn(tool.example, name))
    )
    .map(([name]) => name);
}

/** The ordered advice for an evaluation of `plan`. */
export function evalFixes(
  plan: McpcastPlan,
  run: {
    results: readonly EvalTaskResult[];
    score: EvalScore;
    unmatched: readonly string[];
    tools: string[];
  },
): EvalFix[] {
  const { results, score } = run;
  const calls = results.flatMap((result) => result.calls);
  const out = breakage(results, run.unmatched);
  for (const pair of score.confusedPairs) {
    out.push(advice(
      `\`${pair.expected}\` vs \`${pair.called}\` are easy to confuse: \`${pair.called}\` was called ` +
        `first in ${pair.count} of ${pair.of} tasks meant for \`${pair.expected}\`. Merge them, or say in ` +
        "each description when not to use it.",
    ));
  }
  const missingIds = countByTool(calls, (call) => call.status === 404 || call.status === 410);
  for (const tool of missingIds.keys()) {
    out.push(advice(
      `\`${tool}\` was answered 404/410: the identifiers in its example may be invented; use real ones.`,
    ));
  }
  for (const [tool, count] of countByTool(calls, (call) => call.error_code === "VALIDATION_ERROR")) {
    const bare = undocumented(plan, tool);
    const hint = bare.length === 0 ? "" : `; describe or give an example value for ${names(bare)}`;
    out.push(advice(`\`${tool}\` got ${plural(count, "invalid argument set")}${hint}.`));
  }
  if (score.neverUsed.length > 0) {
    out.push(advice(
      `Never used although a task needed them: ${names(score.neverUsed)}. Make their names and ` +
        "descriptions say what they are for.",
    ));
  }
  if (score.notCovered.length > 0) {
    out.push(advice(`No task tried ${names(score.notCovered)}: evaluate with more tasks.`));
  }
  const listed = new Set(run.tools);
  const bare = plan.tools.filter((tool) =>
    listed.has(tool.name) && tool.example === null &&
    Object.values(tool.params).some((param) => !param.hidden)
  ).map((tool) => tool.name);
  if (bare.length > 0) {
    out.push(advice(`No example: ${names(bare)}. An example helps the agent fill arguments.`));
  }
  return out;
}
