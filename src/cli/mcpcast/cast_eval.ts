/**
 * `agentry mcpcast --eval`: after the project is written, an agent (the `--model`) works through
 * generated tasks against the plan's server (`buildPlanServer`, the server the project runs) and the
 * Agent Readiness report is written to `eval/` in the project (atomically: an interrupt leaves no
 * half-written file).
 *
 * @module
 */

import { resolve } from "node:path";
import type { NeededPermission } from "../../_util/permission_hint.ts";
import {
  buildPlanServer,
  evaluate,
  McpcastError,
  type McpcastPlan,
  type Operation,
  writeEval,
} from "../../mcpcast/mod.ts";
import type { CliContext } from "../cli_context.ts";
import { CliFailure } from "../exit.ts";
import type { ResolvedModel } from "./model.ts";
import { evaluationProgress } from "./model_progress.ts";
import type { EvalOutcome } from "./model_report.ts";
import { netOf, permissionProblem, sourceNeeds } from "./permissions.ts";
import type { Progress } from "./progress.ts";
import { oneLineMessage, parseSource } from "./source.ts";

/** The API's hosts: reads may reach them during an evaluation (plan base URL and routes' own). */
export function evalNeeds(plan: McpcastPlan): NeededPermission[] {
  const urls = [plan.api.base_url, ...plan.tools.flatMap((tool) => tool.routes.map((r) => r.base_url ?? ""))];
  const needs = new Map<string, NeededPermission>();
  for (const text of urls) {
    const url = URL.parse(text);
    if (url !== null && /^https?:$/.test(url.protocol)) needs.set(url.host, netOf(url));
  }
  return [...needs.values()];
}

/**
 * The spec operations of a plan read from a file (for mocks from response schemas): its
 * `spec_source`, resolved against the working directory, else the plan's directory. None when the
 * plan records no source; a source that cannot be loaded is an error (mocks would silently differ).
 */
export async function planOperations(
  plan: McpcastPlan,
  planDir: string,
  ctx: CliContext,
): Promise<readonly Operation[] | undefined> {
  const source = plan.api.spec_source;
  if (source === null || source === "" || source === "<inline>") return undefined;
  const url = /^https?:\/\//i.test(source);
  const path = url ? source : [resolve(source), resolve(planDir, source)].find(exists);
  if (path === undefined) {
    throw new CliFailure(
      `--eval: the plan's spec_source ${source} is not found (its response schemas shape the mocks); ` +
        "run from the directory it is relative to",
    );
  }
  const denied = permissionProblem(sourceNeeds(path));
  if (denied !== undefined) throw new CliFailure(denied);
  try {
    const spec = await parseSource(path, { signal: ctx.signal, env: ctx.env, responseSchemas: true });
    return spec.operations;
  } catch (error) {
    if (!(error instanceof McpcastError)) throw error;
    throw new CliFailure(`--eval: the plan's spec_source ${source}: ${oneLineMessage(error.message)}`);
  }
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Evaluates `plan` with `tasks` generated tasks and writes `eval/` under `outDir`. */
export async function runEval(
  plan: McpcastPlan,
  options: {
    ctx: CliContext;
    model: ResolvedModel;
    tasks: number;
    /** Every upstream request mocked (no read reaches the API). */
    offline: boolean;
    outDir: string;
    operations?: readonly Operation[];
    progress: Progress;
  },
): Promise<EvalOutcome> {
  const { ctx, model, progress } = options;
  progress.note(`evaluating with ${model.model}: writing ${options.tasks} task(s)`);
  const report = await evaluate(plan, (serverOptions) => buildPlanServer(plan, serverOptions), {
    complete: model.complete,
    client: model.client,
    env: ctx.env,
    tasks: options.tasks,
    liveReads: !options.offline,
    ...(options.operations === undefined ? {} : { operations: options.operations }),
    signal: ctx.signal,
    onProgress: evaluationProgress(progress),
  });
  ctx.signal.throwIfAborted();
  const files = await writeEval(report, report.results.map((result) => result.task), options.outDir);
  return { report, files };
}
