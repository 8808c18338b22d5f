/**
 * The guided setup's model steps: choosing a model (or none: offline is always possible), checked
 * against its provider's variables and permissions without calling it; curating with it (a failed
 * curation offers the offline plan instead); and the evaluation switch before writing.
 *
 * @module
 */

import {
  type ApprovalMode,
  type AuthMode,
  curate,
  McpcastError,
  type McpcastPlan,
  type ParsedSpec,
  type SafetyProfile,
} from "../../mcpcast/mod.ts";
import type { CliContext } from "../cli_context.ts";
import { CliFailure, UsageError } from "../exit.ts";
import type { Prompter } from "../prompter.ts";
import { checkModel, DEFAULT_EVAL_TASKS } from "./args_model.ts";
import { derivedNames } from "./cast_spec.ts";
import { modelEnvProblem, modelNeeds, type ResolvedModel, resolveModel } from "./model.ts";
import { curationProgress } from "./model_progress.ts";
import { curationNotes, type EvalOutcome } from "./model_report.ts";
import { permissionProblem } from "./permissions.ts";
import type { Progress } from "./progress.ts";
import { oneLineMessage, parseSource } from "./source.ts";
import { evalNeeds, runEval } from "./cast_eval.ts";

/** The answer that plans without a model. */
export const OFFLINE = "offline";

const PROVIDERS = [
  "openai (OPENAI_API_KEY)",
  "anthropic (ANTHROPIC_API_KEY)",
  "ollama (OLLAMA_HOST, default localhost)",
  "openai-compatible (OPENAI_COMPATIBLE_BASE_URL)",
];

/**
 * Why `model` cannot be used here (a malformed string, an unknown provider, a variable the process
 * may not read or that is unset, a host it may not reach), or the resolved model. Nothing is called.
 */
export function checkWizardModel(model: string, ctx: CliContext): ResolvedModel | string {
  try {
    checkModel(model);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  const problem = modelEnvProblem(model) ?? permissionProblem(modelNeeds(model, ctx.env));
  if (problem !== undefined) return problem;
  try {
    return resolveModel(model, ctx.env);
  } catch (error) {
    if (error instanceof McpcastError) return oneLineMessage(error.message);
    throw error;
  }
}

/** Asks for a model until one can be used, or `offline` (the default unless `prefill` names one). */
export async function chooseModel(
  ask: Prompter,
  ctx: CliContext,
  prefill: string | undefined,
): Promise<ResolvedModel | undefined> {
  ask.say(`  ${OFFLINE}: one tool per operation, no model (always possible)`);
  ask.say("  PROVIDER:MODEL: the model designs fewer, merged tools (every rule checked in code)");
  ask.say(`    and can evaluate the result; providers: ${PROVIDERS.join(", ")}`);
  let resolved: ResolvedModel | undefined;
  const answer = await ask.ask("Model", {
    fallback: prefill ?? OFFLINE,
    check: (typed) => {
      if (typed.toLowerCase() === OFFLINE) return undefined;
      const checked = checkWizardModel(typed, ctx);
      if (typeof checked === "string") return `${checked} (or answer ${OFFLINE})`;
      resolved = checked;
      return undefined;
    },
  });
  return answer.toLowerCase() === OFFLINE ? undefined : resolved;
}

/** How the plan is shaped (the answers of the profile and auth steps). */
export interface PlanShape {
  /** Profile. */
  profile: SafetyProfile;
  /** Auth mode. */
  auth: AuthMode;
  /** Approval mode, when one was chosen. */
  approval?: ApprovalMode;
  /** Base URL typed when it differs from the spec's. */
  baseUrl?: string;
}

/**
 * A plan from the model, with the review's notes; after a failed curation, undefined when the user
 * takes the offline plan instead (else the failure is thrown).
 */
export async function curatedPlan(
  ask: Prompter,
  context: { ctx: CliContext; model: ResolvedModel; spec: ParsedSpec; progress: Progress; shape: PlanShape },
): Promise<{ plan: McpcastPlan; notes: Record<string, string> } | undefined> {
  const { ctx, model, spec, progress, shape } = context;
  try {
    const curation = await curate(spec, {
      ...shape,
      complete: model.complete,
      signal: ctx.signal,
      onProgress: curationProgress(progress, model.model),
    });
    return { plan: curation.plan, notes: curationNotes(curation.plan, curation, derivedNames(spec)) };
  } catch (error) {
    if (!(error instanceof McpcastError) || ctx.signal.aborted) throw error;
    ask.say(`  ${oneLineMessage(error.message)}`);
    if (await ask.confirm("Plan without the model instead (one tool per operation)?", true)) return undefined;
    throw error;
  }
}

/**
 * The evaluation switch (only with a model): how many tasks to run after writing, or none. When the
 * API's host may not be reached (reads go live), that is said and the evaluation stays off.
 */
export async function chooseEval(
  ask: Prompter,
  model: ResolvedModel | undefined,
  plan: McpcastPlan,
): Promise<number | undefined> {
  if (model === undefined) return undefined;
  const yes = await ask.confirm(
    `Evaluate the project with ${model.model} after writing (${DEFAULT_EVAL_TASKS} tasks, report in eval/)?`,
    false,
  );
  if (!yes) return undefined;
  const denied = permissionProblem(evalNeeds(plan));
  if (denied === undefined) return DEFAULT_EVAL_TASKS;
  ask.say(`  ${denied} (no evaluation)`);
  return undefined;
}

/** Evaluates the written project (the spec parsed again with its response schemas, for the mocks). */
export async function evaluateWritten(
  plan: McpcastPlan,
  context: {
    ctx: CliContext;
    model: ResolvedModel;
    tasks: number;
    outDir: string;
    loaded: { source: string; baseUrl?: string };
    progress: Progress;
  },
): Promise<EvalOutcome> {
  const { ctx, loaded } = context;
  const spec = await parseSource(loaded.source, {
    baseUrl: loaded.baseUrl,
    signal: ctx.signal,
    env: ctx.env,
    responseSchemas: true,
  });
  try {
    return await runEval(plan, { ...context, offline: false, operations: spec.operations });
  } catch (error) {
    if (!ctx.signal.aborted) throw error;
    throw new CliFailure(
      "interrupted: the project is written; the evaluation stopped (no eval/ files written)",
    );
  }
}
