/**
 * The guided setup of `agentry mcpcast` (no SOURCE, or `--interactive`, on a terminal): plain
 * line-based questions, step by step — the spec and what was detected in it (for a spec of more
 * than 50 operations, the tags or path prefix to keep), the model (or none), the safety profile (with
 * what each would keep), the auth mode, the approval mode when it matters, the review table (of the curated plan with a model), the output directory and, with a model, the
 * evaluation switch — and nothing is written before the last confirmation. The permissions a
 * path or URL needs are checked as soon as it is typed: a missing one is said in one line naming the
 * flag, and the question is asked again (an `--out` given on the command line is checked before the
 * first question and ends the run instead). Deno's own prompt never appears.
 *
 * @module
 */

import { resolve } from "node:path";
import {
  API_NAME_PATTERN,
  type ApprovalMode,
  buildPlan,
  defaultAuth,
  McpcastError,
  type McpcastPlan,
  type ParsedSpec,
  SAFETY_PROFILES,
  type SafetyProfile,
  specDocument,
  surfaceReport,
} from "../../mcpcast/mod.ts";
import type { CliContext } from "../cli_context.ts";
import {
  approvalChoices,
  authChoices,
  credentialOf,
  equivalentCommand,
  previewOf,
  previewPlans,
  riskBreakdown,
} from "./preview.ts";
import { evalLines } from "./model_report.ts";
import { Progress } from "./progress.ts";
import { reviewLines, summaryLines } from "./report.ts";
import { surfaceLines } from "./surface.ts";
import { chooseEval, chooseModel, curatedPlan, evaluateWritten } from "./wizard_model.ts";
import { chooseSelection } from "./wizard_select.ts";
import {
  mayReadYaml,
  outDirNeeds,
  permissionProblem,
  requirePermissions,
  sourceNeeds,
} from "./permissions.ts";
import { oneLineMessage, parseSource, publicSource } from "./source.ts";
import { outDirState, writeCast } from "./write.ts";
import { type Choice, PromptAborted, Prompter } from "../prompter.ts";
import { CliFailure, EXIT, UsageError } from "../exit.ts";

/** Answers given on the command line before the setup starts. */
export interface WizardPrefill {
  /** SOURCE, tried first. */
  source?: string;
  /** `--base-url`, the default base URL. */
  baseUrl?: string;
  /** `--out`, the default output directory. */
  out?: string;
  /** `--force`: write without asking about a non-empty directory. */
  force: boolean;
  /** `--framework-import`, already checked: where the project finds the library. */
  frameworkImport?: string;
  /** `--model`, the model step's default. */
  model?: string;
}

const STEPS = 6;

const PROFILE_NOTES: Readonly<Record<SafetyProfile, string>> = {
  "read-only": "reads only",
  standard: "reads, and writes behind human approval",
  full: "everything; every non-read behind human approval",
};

interface Loaded {
  source: string;
  spec: ParsedSpec;
  baseUrl?: string;
  previews: Record<SafetyProfile, McpcastPlan>;
  /** `--tag` values chosen for a large spec. */
  tags: string[];
  /** `--path` values chosen for a large spec. */
  paths: string[];
}

/** Runs the guided setup; refuses with a usage error when stdin or stdout is not a terminal. */
export async function runWizard(ctx: CliContext, prefill: WizardPrefill): Promise<number> {
  const terminal = (ctx.isTerminal?.("stdin") ?? false) && (ctx.isTerminal?.("stdout") ?? false);
  if (ctx.readLine === undefined || !terminal) {
    throw new UsageError(
      "mcpcast needs SOURCE or --plan FILE (the guided setup runs only when stdin and stdout are a terminal)",
    );
  }
  const ask = new Prompter(ctx);
  try {
    return await guide(ask, ctx, prefill);
  } catch (error) {
    // Ctrl-C at a question, or while the model curates: nothing is written before the last answer.
    if (error instanceof PromptAborted || (ctx.signal.aborted && !(error instanceof CliFailure))) {
      ask.say("");
      const why = error instanceof PromptAborted && error.message !== "aborted" ? ` (${error.message})` : "";
      throw new CliFailure(`aborted: nothing written${why}`);
    }
    if (error instanceof McpcastError) throw new CliFailure(oneLineMessage(error.message), { cause: error });
    throw error;
  }
}

function step(ask: Prompter, n: number, title: string): void {
  ask.say("");
  ask.say(`Step ${n}/${STEPS}  ${title}`);
}

function httpUrlProblem(answer: string): string | undefined {
  const url = URL.parse(answer);
  return url !== null && (url.protocol === "http:" || url.protocol === "https:")
    ? undefined
    : "give an absolute http(s) URL";
}

/** Step 1: the spec, what it holds, and its base URL (re-parsed when changed). */
async function loadSpec(ask: Prompter, ctx: CliContext, prefill: WizardPrefill): Promise<Loaded> {
  step(ask, 1, "API description");
  let given = prefill.source;
  while (true) {
    const source = given ?? await ask.ask("Spec (file path or http(s) URL)");
    given = undefined;
    // Asked before reading: Deno's own prompt would wait for a key the line reader holds.
    const denied = permissionProblem(sourceNeeds(source), { yaml: mayReadYaml(source) });
    if (denied !== undefined) {
      ask.say(`  ${denied}`);
      continue;
    }
    let baseUrl = prefill.baseUrl;
    try {
      let spec = await parseSource(source, { baseUrl, signal: ctx.signal, env: ctx.env });
      const { title = spec.info.apiName, version } = spec.info;
      ask.say(`  ${title}${version ? ` ${version}` : ""}`);
      ask.say(`  ${riskBreakdown(spec)}`);
      while (true) {
        const current = baseUrl ?? spec.info.baseUrl;
        if (current === "") ask.say("  the spec names no server URL");
        const typed = await ask.ask("Base URL", { fallback: current, check: httpUrlProblem });
        try {
          if (typed !== current) {
            spec = await parseSource(source, { baseUrl: typed, signal: ctx.signal, env: ctx.env });
            baseUrl = typed;
          }
          const selection = await chooseSelection(ask, spec);
          const previews = previewPlans(selection.spec, baseUrl);
          const schemes = Object.keys(spec.securitySchemes).length;
          ask.say(
            schemes === 0
              ? "  credential: none declared by the spec"
              : `  credential: ${
                credentialOf(previews["read-only"])
              } (${schemes} security scheme(s) in the spec)`,
          );
          const { tags, paths } = selection;
          return { source, spec: selection.spec, baseUrl, previews, tags, paths };
        } catch (error) {
          if (!(error instanceof McpcastError)) throw error;
          ask.say(`  ${oneLineMessage(error.message)}`);
        }
      }
    } catch (error) {
      if (!(error instanceof McpcastError)) throw error;
      ask.say(`  ${oneLineMessage(error.message)}`);
    }
  }
}

/** Step 3: the safety profile, with what each would keep. */
async function chooseProfile(ask: Prompter, loaded: Loaded): Promise<SafetyProfile> {
  step(ask, 3, "Safety profile");
  const choices: Choice<SafetyProfile>[] = SAFETY_PROFILES.map((profile) => {
    const { kept, gated, dropped } = previewOf(loaded.previews[profile]);
    const counts = `${kept} tool${kept === 1 ? "" : "s"}${
      gated > 0 ? ` (${gated} gated)` : ""
    }, ${dropped} dropped`;
    return { value: profile, note: `${counts.padEnd(32)} ${PROFILE_NOTES[profile]}` };
  });
  return await ask.choose("Profile", choices, "read-only");
}

/**
 * Step 4: the auth mode (by default the command's own default for the spec), then the approval mode
 * when gated tools and a choice exist.
 */
async function chooseAuth(ask: Prompter, loaded: Loaded, profile: SafetyProfile) {
  step(ask, 4, "Authentication to the API");
  const preview = loaded.previews[profile];
  const auth = await ask.choose("Auth", authChoices(preview), defaultAuth(loaded.spec));
  const gated = previewOf(preview).gated;
  let approval: ApprovalMode | undefined;
  if (gated > 0) {
    const choices = approvalChoices(auth);
    if (choices.length > 1) {
      ask.say(`  ${gated} tool(s) wait for a human approval; who approves?`);
      approval = await ask.choose("Approval", choices, choices[0].value);
    } else ask.say(`  ${gated} gated tool(s): ${choices[0].note} (elicitation)`);
  }
  return { auth, approval };
}

/** Step 6: name and folder; a folder that is not empty needs a yes. */
async function chooseTarget(ask: Prompter, plan: McpcastPlan, prefill: WizardPrefill) {
  step(ask, 6, "Project");
  const name = await ask.ask("API name", {
    fallback: plan.api.name,
    check: (typed) =>
      API_NAME_PATTERN.test(typed) ? undefined : "use lower-case letters, digits, '-' and '_'",
  });
  const fallback = prefill.out ?? `./${name}-mcp`;
  while (true) {
    const out = await ask.ask("Output directory", { fallback });
    const denied = permissionProblem(outDirNeeds(out));
    if (denied !== undefined) {
      ask.say(`  ${denied}`);
      continue;
    }
    const state = prefill.force ? "empty" : await outDirState(resolve(out));
    if (state === "missing" || state === "empty") return { name, out, force: prefill.force };
    const question = state === "project"
      ? `  ${out} already holds an mcpcast project: replace its plan and generated files?`
      : `  ${out} is not empty and is not an mcpcast project: write into it anyway?`;
    if (await ask.confirm(question, false)) return { name, out, force: true };
  }
}

async function guide(ask: Prompter, ctx: CliContext, prefill: WizardPrefill): Promise<number> {
  // An --out the run may not write to is known now: fail before any question, like the command does.
  if (prefill.out !== undefined) requirePermissions(outDirNeeds(prefill.out));
  ask.say(
    "agentry mcpcast: guided setup. Enter takes the [default]; Ctrl-D or Ctrl-C stops (nothing is written).",
  );
  const loaded = await loadSpec(ask, ctx, prefill);
  step(ask, 2, "Model");
  const model = await chooseModel(ask, ctx, prefill.model);
  const profile = await chooseProfile(ask, loaded);
  const { auth, approval } = await chooseAuth(ask, loaded, profile);
  step(ask, 5, "Review");
  const shape = { profile, auth, approval, baseUrl: loaded.baseUrl };
  const progress = new Progress(ctx, { large: false });
  const curated = model === undefined
    ? undefined
    : await curatedPlan(ask, { ctx, model, spec: loaded.spec, progress, shape });
  const built = curated?.plan ?? buildPlan(loaded.spec, shape);
  for (const line of reviewLines(built, curated?.notes)) ask.say(`  ${line}`);
  const target = await chooseTarget(ask, built, prefill);
  const plan = target.name === built.api.name
    ? built
    : { ...built, api: { ...built.api, name: target.name } };
  const tasks = await chooseEval(ask, model, plan);
  if (!await ask.confirm(`Write the project to ${target.out}?`, true)) throw new PromptAborted();
  const outDir = resolve(target.out);
  const outcome = await writeCast({
    plan,
    outDir,
    shownDir: target.out,
    writePlan: true,
    planOnly: false,
    force: target.force,
    fromSpec: true,
    frameworkImport: prefill.frameworkImport,
    spec: specDocument(loaded.spec),
  });
  ask.say("");
  for (const line of summaryLines(plan, outcome)) ask.say(line);
  const kept = [...loaded.tags.map((tag) => `--tag ${tag}`), ...loaded.paths.map((path) => `--path ${path}`)];
  if (kept.length > 0) ask.say(`  operations kept: ${kept.join(" ")}`);
  for (const line of surfaceLines(await surfaceReport(plan))) ask.say(line);
  if (tasks !== undefined && model !== undefined) {
    const evaluated = await evaluateWritten(plan, { ctx, model, tasks, outDir, loaded, progress });
    for (const line of evalLines(evaluated, outDir, target.out)) ask.say(line);
  }
  const command = equivalentCommand({
    source: publicSource(loaded.source),
    ...(loaded.baseUrl === undefined ? {} : { baseUrl: loaded.baseUrl }),
    tags: loaded.tags,
    paths: loaded.paths,
    ...(model === undefined || (curated === undefined && tasks === undefined)
      ? {}
      : { model: model.model, curate: curated !== undefined }),
    profile,
    auth,
    ...(approval === undefined ? {} : { approval }),
    ...(target.name === loaded.spec.info.apiName ? {} : { name: target.name }),
    ...(target.out === `./${target.name}-mcp` ? {} : { out: target.out }),
    force: target.force,
    ...(prefill.frameworkImport === undefined ? {} : { frameworkImport: prefill.frameworkImport }),
    ...(tasks === undefined ? {} : { evaluate: true }),
  });
  ask.say(`Same result without questions: ${command}`);
  ask.say(`Next: cd ${target.out} && deno task test`);
  return EXIT.ok;
}
