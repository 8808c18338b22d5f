/**
 * `agentry mcpcast SOURCE`: converts an OpenAPI/Swagger spec into an MCP server project (or, with
 * `--plan FILE`, regenerates one from its edited plan). With no SOURCE on a terminal it runs the
 * guided setup instead (`wizard.ts`).
 *
 * Human output goes to stderr (a progress display for large specs on a terminal, the optional
 * review table, the summary); `--json` prints one object on stdout. Exit status: 0 written, 1 for
 * an invalid spec or plan, a refused directory or an aborted review, 2 for wrong usage.
 *
 * Permissions: read access to SOURCE, read and write access to the output directory, network access
 * for a URL SOURCE; each is checked before it is used (`permissions.ts`), so a missing one is one line
 * naming the flag, never Deno's prompt.
 *
 * @module
 */

import { basename, dirname, join, relative, resolve } from "node:path";
import { buildPlan, McpcastError, type McpcastPlan, specDocument } from "../../mcpcast/mod.ts";
import type { CliContext } from "../cli_context.ts";
import { MCPCAST_HELP, type McpcastArgs, parseMcpcastArgs } from "./args.ts";
import { isLargeSource, Progress } from "./progress.ts";
import { reviewLines, summaryJson, summaryLines } from "./report.ts";
import { mayReadYaml, outDirNeeds, requirePermissions, sourceNeeds } from "./permissions.ts";
import { oneLineMessage, parseSource, publicSource, readPlanFile } from "./source.ts";
import { runWizard } from "./wizard.ts";
import { type CastTarget, checkOutDir, PLAN_FILE, writeCast } from "./write.ts";
import { PromptAborted, Prompter } from "../prompter.ts";
import { CliFailure, EXIT, UsageError } from "../exit.ts";

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
  try {
    const progress = new Progress(ctx, {
      large: options.source ? await isLargeSource(options.source) : false,
    });
    const target = options.mode === "plan"
      ? await fromPlanFile(options)
      : await fromSpec(options, ctx, progress);
    requirePermissions(outDirNeeds(target.shownDir));
    await checkOutDir(target);
    if (options.review) await review(target, ctx);
    progress.phase(`writing ${target.shownDir}`);
    const outcome = await writeCast(target);
    for (const line of summaryLines(target.plan, outcome)) ctx.stderr(line);
    if (options.json) ctx.stdout(JSON.stringify(summaryJson(target.plan, outcome)));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof McpcastError) throw new CliFailure(oneLineMessage(error.message), { cause: error });
    throw error;
  }
}

/** The output directory: absolute, and as shown (relative to the working directory when inside it). */
function outDirOf(given: string | undefined, fallback: string): { outDir: string; shownDir: string } {
  const outDir = resolve(given ?? fallback);
  if (given !== undefined) return { outDir, shownDir: given };
  const inside = relative(Deno.cwd(), outDir);
  return { outDir, shownDir: inside.startsWith("..") || inside === "" ? outDir : `./${inside}` };
}

async function fromSpec(options: McpcastArgs, ctx: CliContext, progress: Progress): Promise<CastTarget> {
  const source = options.source!;
  progress.phase(`loading ${basename(publicSource(source))}`);
  const spec = await parseSource(source, {
    baseUrl: options.baseUrl,
    signal: ctx.signal,
    env: ctx.env,
    externalRefs: options.externalRefs,
  });
  progress.operations(spec.operations.length);
  progress.phase("planning");
  const plan = buildPlan(spec, {
    profile: options.profile,
    auth: options.auth,
    approval: options.approval,
    baseUrl: options.baseUrl,
    name: options.name,
    maxTools: options.maxTools,
  });
  return {
    plan,
    ...outDirOf(options.out, `${plan.api.name}-mcp`),
    writePlan: true,
    planOnly: options.planOnly,
    force: options.force,
    fromSpec: true,
    frameworkImport: options.frameworkImport,
    spec: specDocument(spec),
  };
}

/** `path` (absolute) relative to the working directory when inside it. */
function shownPath(path: string): string {
  return relative(Deno.cwd(), path).startsWith("..") ? path : relative(Deno.cwd(), path);
}

async function fromPlanFile(options: McpcastArgs): Promise<CastTarget> {
  const planFile = options.planFile!;
  const shown = shownPath(planFile);
  const plan: McpcastPlan = await readPlanFile(planFile, shown);
  const dirs = outDirOf(options.out, dirname(planFile));
  return {
    plan,
    ...dirs,
    // Regenerating beside the plan keeps the file as the user wrote it (comments included).
    writePlan: resolve(join(dirs.outDir, PLAN_FILE)) !== planFile,
    planOnly: false,
    force: options.force,
    fromSpec: false,
    frameworkImport: options.frameworkImport,
  };
}

async function review(target: CastTarget, ctx: CliContext): Promise<void> {
  for (const line of reviewLines(target.plan)) ctx.stderr(line);
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
