/**
 * The Agent Readiness Score: an agent runs realistic tasks against the server built from a plan,
 * through a real MCP client, and the report says how often it chose the right tool first and got
 * the task done. See the folder's `mod.ts` for the whole procedure.
 *
 * @module
 */

import { createTestClient, Logger } from "../../mcp/mod.ts";
import type { ToolSpec } from "../../models/mod.ts";
import { McpcastError } from "../errors.ts";
import { estimateTokens } from "../model/mod.ts";
import type { McpcastPlan } from "../plan/mod.ts";
import { evalEnvironment } from "./eval_env.ts";
import { createEvalFetch } from "./eval_fetch.ts";
import { evalFixes } from "./fixes.ts";
import { resolveEvaluateOptions } from "./options.ts";
import { runTask } from "./run_task.ts";
import { scoreResults, taskResult } from "./score.ts";
import { checkTasks, generateTasks } from "./tasks.ts";
import type { BuildEvalServer, EvalReport, EvalTask, EvalTaskResult, EvaluateOptions } from "./types.ts";

/**
 * Evaluates the server `buildServer` makes for `plan`: writes (or takes) the tasks, runs an agent on
 * each with the server's listed tools through an MCP client (gated calls approved automatically;
 * upstream requests served as described in `eval_fetch.ts`), and scores the runs.
 *
 * @throws {McpcastError} for invalid options or tasks, a model that cannot be used, a server that
 * lists none of the plan's tools, or when every task crashed (no grade for a run that never
 * happened). Rejects with the signal's reason when aborted.
 *
 * @example
 * ```ts ignore
 * import { buildPlanServer, evaluate, renderEvalMarkdown } from "@agentry/agentry/mcpcast";
 * const report = await evaluate(plan, (o) => buildPlanServer(plan, o), { model: "ollama:qwen3", tasks: 10 });
 * console.log(renderEvalMarkdown(report));
 * ```
 */
export async function evaluate(
  plan: McpcastPlan,
  buildServer: BuildEvalServer,
  options: EvaluateOptions = {},
): Promise<EvalReport> {
  const resolved = resolveEvaluateOptions(options);
  const { signal } = resolved;
  signal.throwIfAborted();
  const { env, headers } = evalEnvironment(plan, resolved.env, resolved.headers);
  const upstream = createEvalFetch(plan, {
    env,
    fetch: resolved.fetch,
    liveReads: resolved.liveReads,
    operations: resolved.operations,
  });
  // The auto-approver's "approval requested / granted" lines would only crowd a progress display.
  const logger = new Logger("agentry.mcpcast.eval", { level: "warning" });
  const server = await buildServer({ fetch: upstream.fetch, env, approver: () => true, logger });
  const mcp = await createTestClient(server, { headers });
  try {
    const listed = await mcp.listTools();
    const toolListTokens = estimateTokens(JSON.stringify({ tools: listed }));
    const names = listed.map((tool) => tool.name);
    const catalogue = plan.tools.filter((tool) => names.includes(tool.name));
    if (catalogue.length === 0) throw new McpcastError("the server lists none of the plan's tools");
    const tasks: EvalTask[] = typeof resolved.tasks === "number"
      ? await generateTasks(plan, catalogue, { complete: resolved.complete!, count: resolved.tasks, signal })
      : checkTasks(resolved.tasks, new Set(names));
    const specs: ToolSpec[] = listed.map((tool) => ({
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema as Record<string, unknown>,
    }));
    const results: EvalTaskResult[] = [];
    for (const [i, task] of tasks.entries()) {
      signal.throwIfAborted();
      const position = { index: i + 1, total: tasks.length, task };
      resolved.onProgress({ kind: "task_started", ...position });
      const run = await runTask(task, {
        model: resolved.client,
        mcp,
        specs,
        maxSteps: resolved.maxAgentIterations,
        signal,
      });
      const result = taskResult(task, run);
      results.push(result);
      resolved.onProgress({ kind: "task_ended", ...position, result });
    }
    if (results.every((result) => result.error !== undefined)) {
      throw new McpcastError(
        `evaluation failed: all ${results.length} task(s) crashed, so there is no grade; the first: ` +
          results[0].error,
      );
    }
    const score = scoreResults(results, names);
    const unmatched = [...upstream.unmatched];
    return {
      api: plan.api.name,
      ...score,
      total: results.length,
      unmatched,
      liveRequests: upstream.live,
      mockedRequests: upstream.mocked,
      toolCount: listed.length,
      toolListTokens,
      fixes: evalFixes(plan, { results, score, unmatched, tools: names }),
      results,
    };
  } finally {
    await mcp.close();
  }
}
