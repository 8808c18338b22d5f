/**
 * `agentry mcpcast SOURCE`: converts an OpenAPI/Swagger spec into an MCP server project (or, with
 * `--plan FILE`, regenerates one from its edited plan). With no SOURCE on a terminal it runs the
 * guided setup instead (`wizard.ts`). With `--model` a model curates the plan first
 * (`cast_spec.ts`), and with `--eval` it evaluates the written project (`cast_eval.ts`).
 *
 * Human output goes to stderr (a progress display for large specs on a terminal, the model's
 * progress always, the optional review table, the summary with the tool-surface report, the
 * readiness grade); `--json` prints one object on stdout. Exit status: 0 written, 1 for an invalid
 * spec or plan, a refused directory, a model that cannot be used, a failed curation or evaluation or
 * an aborted review, 2 for wrong usage, 128 + the signal's number when interrupted (130 for SIGINT):
 * the project is written only after curation succeeded, and `eval/` files atomically.
 *
 * Permissions: read access to SOURCE, read and write access to the output directory, network access
 * for a URL SOURCE; with `--model` the provider's variables and its host (`model.ts`), with `--eval`
 * the API's hosts. Each is checked before it is used (`permissions.ts`), so a missing one is one line
 * naming the flag, never Deno's prompt.
 *
 * @module
 */

import { basename, dirname, join, relative, resolve } from "node:path";
import {
  McpcastError,
  type McpcastPlan,
  type Operation,
  specDocument,
  surfaceReport,
} from "../../mcpcast/mod.ts";
import type { CliContext } from "../cli_context.ts";
import { MCPCAST_HELP, type McpcastArgs, parseMcpcastArgs } from "./args.ts";
import { planFromSpec, type SpecPlan } from "./cast_spec.ts";
import { evalNeeds, planOperations, runEval } from "./cast_eval.ts";
import { modelEnvProblem, modelNeeds, type ResolvedModel, resolveModel } from "./model.ts";
import {
  curationJson,
  curationLines,
  curationNotes,
  evalJson,
  evalLines,
  type EvalOutcome,
} from "./model_report.ts";
import { isLargeSource, Progress } from "./progress.ts";
import { reviewLines, summaryJson, summaryLines } from "./report.ts";
import { mayReadYaml, outDirNeeds, requirePermissions, sourceNeeds } from "./permissions.ts";
import { oneLineMessage, publicSource, readPlanFile } from "./source.ts";
import { surfaceJson, surfaceLines } from "./surface.ts";
import { runWizard } from "./wizard.ts";
import { type CastTarget, checkOutDir, PLAN_FILE, writeCast } from "./write.ts";
import { PromptAborted, Prompter } from "../prompter.ts";
import { CliFailure, EXIT, UsageError } from "../exit.ts";

/** A cast about to be written: the target, and the plan's history when a model curated it. */
interface Cast extends CastTarget {
  /** Curation's answer and the derived names, when `--model` curated. */
  curated?: Pick<SpecPlan, "curation" | "derivedNames">;
  /** The spec's operations, for the evaluation's mocks. */
  operations?: readonly Operation[];
}

/** Runs `agentry mcpcast` with the arguments after `mcpcast`. */
export async function mcpcastCommand(args: readonly string[], ctx: CliContext): Promise<number> {
  const options = parseMcpcastArgs(args);
  if (options.help) {
    ctx.stdout(MCPCAST_HELP.trimEnd());
    return EXIT.ok;
  }
  if (options.mode === "wizard") {
    return await runWizard(ctx, {
      source: options.source,
      baseUrl: options.baseUrl,
      out: options.out,
      force: options.force,
      frameworkImport: options.frameworkImport,
      model: options.model,
    });
  }
  if (options.review && (ctx.readLine === undefined || !(ctx.isTerminal?.("stdin") ?? false))) {
    throw new UsageError("--review asks before writing and needs a terminal, but stdin is not one");
  }
  // Before anything is read: a missing permission is one line naming the flag, never Deno's prompt.
  if (options.source !== undefined) {
    requirePermissions(sourceNeeds(options.source, options), { yaml: mayReadYaml(options.source) });
  }
  if (options.planFile !== undefined) {
    requirePermissions([{ name: "read", path: shownPath(options.planFile) }], { yaml: true });
  }
  const done = { written: false };
  try {
    const model = options.model === undefined ? undefined : prepareModel(options.model, ctx);
    const progress = new Progress(ctx, {
      large: options.source ? await isLargeSource(options.source) : false,
    });
    const target = options.mode === "plan"
      ? await fromPlanFile(options, ctx)
      : await fromSpec(options, ctx, progress, model);
    if (options.evaluate?.offline === false) requirePermissions(evalNeeds(target.plan));
    requirePermissions(outDirNeeds(target.shownDir));
    await checkOutDir(target);
    progress.phase("measuring the tool surface");
    const surface = await surfaceReport(target.plan);
    if (options.review) await review(target, ctx);
    progress.phase(`writing ${target.shownDir}`);
    const outcome = await writeCast(target);
    done.written = true;
    for (const line of summaryLines(target.plan, outcome)) ctx.stderr(line);
    if (target.curated?.curation) {
      for (const line of curationLines(target.curated.curation)) ctx.stderr(line);
    }
    for (const line of surfaceLines(surface)) ctx.stderr(line);
    let evaluated: EvalOutcome | undefined;
    if (options.evaluate !== undefined && model !== undefined) {
      evaluated = await runEval(target.plan, {
        ctx,
        model,
        tasks: options.evaluate.tasks,
        offline: options.evaluate.offline,
        outDir: target.outDir,
        operations: target.operations,
        progress,
      });
      for (const line of evalLines(evaluated, target.outDir, target.shownDir)) ctx.stderr(line);
    }
    if (options.json) {
      ctx.stdout(JSON.stringify({
        ...summaryJson(target.plan, outcome),
        surface: surfaceJson(surface),
        ...(target.curated?.curation ? { curation: curationJson(target.curated.curation) } : {}),
        ...(evaluated === undefined ? {} : { eval: evalJson(evaluated) }),
      }));
    }
    return EXIT.ok;
  } catch (error) {
    // Stopped while curating, evaluating or loading (a refused review already said "aborted").
    if (ctx.signal.aborted && !(error instanceof CliFailure)) return interrupted(ctx, done.written);
    if (error instanceof McpcastError) throw new CliFailure(oneLineMessage(error.message), { cause: error });
    throw error;
  }
}

/**
 * The model's permissions (its variables, then its host), then its completer and client: a missing
 * key is said before the spec is read.
 */
function prepareModel(model: string, ctx: CliContext): ResolvedModel {
  const denied = modelEnvProblem(model);
  if (denied !== undefined) throw new CliFailure(denied);
  requirePermissions(modelNeeds(model, ctx.env));
  return resolveModel(model, ctx.env);
}

/** Exit status of a process stopped by a signal: 128 + its number (130 for SIGINT), as shells report. */
function interruptedStatus(reason: unknown): number {
  return 128 + (reason === "SIGTERM" ? 15 : 2);
}

/** Says what an interrupt left (nothing half-written) and answers 130 (SIGINT) or 143 (SIGTERM). */
function interrupted(ctx: CliContext, written: boolean): number {
  ctx.stderr(
    written
      ? "agentry: interrupted: the project is written; the evaluation stopped (no eval/ files written)"
      : "agentry: interrupted: nothing written",
  );
  return interruptedStatus(ctx.signal.reason);
}

/** The output directory: absolute, and as shown (relative to the working directory when inside it). */
function outDirOf(given: string | undefined, fallback: string): { outDir: string; shownDir: string } {
  const outDir = resolve(given ?? fallback);
  if (given !== undefined) return { outDir, shownDir: given };
  const inside = relative(Deno.cwd(), outDir);
  return { outDir, shownDir: inside.startsWith("..") || inside === "" ? outDir : `./${inside}` };
}

async function fromSpec(
  options: McpcastArgs,
  ctx: CliContext,
  progress: Progress,
  model: ResolvedModel | undefined,
): Promise<Cast> {
  progress.phase(`loading ${basename(publicSource(options.source!))}`);
  const { spec, plan, curation, derivedNames } = await planFromSpec(options, ctx, { progress, model });
  return {
    plan,
    ...outDirOf(options.out, `${plan.api.name}-mcp`),
    writePlan: true,
    planOnly: options.planOnly,
    force: options.force,
    fromSpec: true,
    frameworkImport: options.frameworkImport,
    spec: specDocument(spec),
    ...(curation === undefined ? {} : { curated: { curation, derivedNames } }),
    operations: spec.operations,
  };
}

/** `path` (absolute) relative to the working directory when inside it. */
function shownPath(path: string): string {
  return relative(Deno.cwd(), path).startsWith("..") ? path : relative(Deno.cwd(), path);
}

async function fromPlanFile(options: McpcastArgs, ctx: CliContext): Promise<Cast> {
  const planFile = options.planFile!;
  const shown = shownPath(planFile);
  const plan: McpcastPlan = await readPlanFile(planFile, shown);
  const dirs = outDirOf(options.out, dirname(planFile));
  const operations = options.evaluate === undefined
    ? undefined
    : await planOperations(plan, dirname(planFile), ctx);
  return {
    plan,
    ...(operations === undefined ? {} : { operations }),
    ...dirs,
    // Regenerating beside the plan keeps the file as the user wrote it (comments included).
    writePlan: resolve(join(dirs.outDir, PLAN_FILE)) !== planFile,
    planOnly: false,
    force: options.force,
    fromSpec: false,
    frameworkImport: options.frameworkImport,
  };
}

async function review(target: Cast, ctx: CliContext): Promise<void> {
  const { curation, derivedNames } = target.curated ?? {};
  const notes = curation === undefined
    ? undefined
    : curationNotes(target.plan, curation, derivedNames ?? new Map());
  for (const line of reviewLines(target.plan, notes)) ctx.stderr(line);
  ctx.stderr("");
  const what = target.planOnly ? "the plan" : "the project";
  let write: boolean;
  try {
    write = await new Prompter(ctx).confirm(`Write ${what} to ${target.shownDir}?`, true);
  } catch (error) {
    if (!(error instanceof PromptAborted)) throw error;
    write = false;
  }
  if (!write) throw new CliFailure("aborted: nothing written");
}
