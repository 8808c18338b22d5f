/**
 * The flags of `agentry mcpcast` about the model and the served tool surface: `--model`,
 * `--no-curate`, `--eval`, `--eval-tasks`, `--eval-offline`, `--descriptions` and `--tool-mode`, checked together (what
 * each needs, and which apply with `--plan`).
 *
 * @module
 */

import { parseModelString, ProviderRegistry } from "../../models/mod.ts";
import { UsageError } from "../exit.ts";

/** Tools a curated plan may have unless `--max-tools` says otherwise. */
export const CURATED_MAX_TOOLS = 25;
/** Evaluation tasks unless `--eval-tasks` says otherwise. */
export const DEFAULT_EVAL_TASKS = 20;
/** Most evaluation tasks (`evaluate`'s own bound). */
export const MAX_EVAL_TASKS = 500;

/** How tool descriptions are served: as planned, or cut to what a model needs (`compactPlan`). */
export type DescriptionMode = "compact" | "full";
/** How the server lists its tools: each one, or search / describe / invoke. */
export type ToolModeFlag = "direct" | "meta";

/** What the model flags ask for. */
export interface ModelArgs {
  /** `--model PROVIDER:MODEL`. */
  model?: string;
  /** Whether a model designs the tool surface (`--model` without `--no-curate`). */
  curate: boolean;
  /**
   * `--eval` / `--eval-tasks N` / `--eval-offline`: evaluate the written project with this many tasks;
   * offline, every upstream request is answered by a mock (reads too).
   */
  evaluate?: { tasks: number; offline: boolean };
  /** `--descriptions`. */
  descriptions?: DescriptionMode;
  /** `--tool-mode`. */
  toolMode?: ToolModeFlag;
}

/** The raw values of the model flags, as the parser gives them. */
export interface ModelFlagValues {
  model?: string;
  "no-curate"?: boolean;
  eval?: boolean;
  "eval-tasks"?: string;
  "eval-offline"?: boolean;
  descriptions?: string;
  "tool-mode"?: string;
  "plan-only"?: boolean;
}

/** `--model` checked: `PROVIDER:MODEL` with a provider the registry knows. */
export function checkModel(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let provider: string;
  try {
    provider = parseModelString(value).provider;
  } catch {
    throw new UsageError("--model must be PROVIDER:MODEL, e.g. openai:gpt-5-mini or ollama:llama3.2");
  }
  const registry = new ProviderRegistry();
  if (!registry.has(provider)) {
    throw new UsageError(`--model: unknown provider '${provider}' (known: ${registry.names().join(", ")})`);
  }
  return value.trim();
}

function checkEvalTasks(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > MAX_EVAL_TASKS) {
    throw new UsageError(`--eval-tasks must be an integer from 1 to ${MAX_EVAL_TASKS}`);
  }
  return Number(value);
}

function choice<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]) {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be ${allowed.join(" or ")}`);
  }
  return value as T;
}

/**
 * The model flags checked: `--eval` and `--eval-tasks` need `--model` and a written project (not
 * `--plan-only`); with `--plan`, `--model` only serves `--eval`.
 */
export function modelArgs(values: ModelFlagValues, fromPlan: boolean): ModelArgs {
  const model = checkModel(values.model);
  const tasks = checkEvalTasks(values["eval-tasks"]);
  const offline = values["eval-offline"] ?? false;
  const evaluate = values.eval || tasks !== undefined || offline
    ? { tasks: tasks ?? DEFAULT_EVAL_TASKS, offline }
    : undefined;
  if (evaluate !== undefined && model === undefined) {
    const flag = values.eval ? "eval" : tasks !== undefined ? "eval-tasks" : "eval-offline";
    throw new UsageError(
      `--${flag} needs --model PROVIDER:MODEL (the model writes the tasks and plays the agent)`,
    );
  }
  if (evaluate !== undefined && values["plan-only"]) {
    throw new UsageError("--eval evaluates the written project; it takes no --plan-only");
  }
  if (fromPlan && model !== undefined && evaluate === undefined) {
    throw new UsageError("--model with --plan only serves --eval (curation shapes a plan from a spec)");
  }
  return {
    model,
    curate: model !== undefined && !fromPlan && !values["no-curate"],
    evaluate,
    descriptions: choice("descriptions", values.descriptions, ["compact", "full"] as const),
    toolMode: choice("tool-mode", values["tool-mode"], ["direct", "meta"] as const),
  };
}
