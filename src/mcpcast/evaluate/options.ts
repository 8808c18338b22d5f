/**
 * `evaluate`'s options checked and resolved: who writes the tasks, which model drives the agent, the
 * bounds, the environment and the fetch.
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";
import { hostEnv } from "../../_util/host_env.ts";
import { type ModelClient, ProviderRegistry } from "../../models/mod.ts";
import { McpcastError } from "../errors.ts";
import { type Completer, modelCompleter } from "../model/mod.ts";
import type { EnvLookup, Operation } from "../types.ts";
import { DEFAULT_TASKS, MAX_TASKS } from "./tasks.ts";
import type { EvalProgress, EvalTask, EvaluateOptions } from "./types.ts";

const EVALUATE_KEYS = {
  model: true,
  complete: true,
  client: true,
  env: true,
  fetch: true,
  tasks: true,
  operations: true,
  liveReads: true,
  headers: true,
  maxAgentIterations: true,
  signal: true,
  onProgress: true,
} satisfies Record<keyof EvaluateOptions, true>;

/** Default most model turns per task. */
export const DEFAULT_AGENT_ITERATIONS = 8;

/** {@linkcode EvaluateOptions} with defaults filled and models resolved. */
export interface ResolvedEvaluateOptions {
  /** Writes the tasks (absent with an explicit task list and no model). */
  complete?: Completer;
  /** The agent's model. */
  client: ModelClient;
  /** The caller's environment. */
  env: EnvLookup;
  /** Live upstream fetch. */
  fetch: typeof fetch;
  /** How many tasks to write, or the list. */
  tasks: number | readonly unknown[];
  /** The spec's operations. */
  operations: readonly Operation[];
  /** Whether reads may go live. */
  liveReads: boolean;
  /** MCP headers (absent: the auth mode's defaults). */
  headers?: Record<string, string>;
  /** Most model turns per task. */
  maxAgentIterations: number;
  /** Stops the run. */
  signal: AbortSignal;
  /** Progress listener. */
  onProgress: (event: EvalProgress) => void;
}

function positiveInteger(value: unknown, what: string, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    throw new McpcastError(`evaluate: ${what} must be an integer from 1 to ${max}`);
  }
  return value;
}

function checkHeaders(headers: unknown): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  if (
    typeof headers !== "object" || headers === null || Array.isArray(headers) ||
    !Object.values(headers).every((value) => typeof value === "string")
  ) {
    throw new McpcastError("evaluate: `headers` must map header names to strings");
  }
  return { ...headers as Record<string, string> };
}

function agentClient(options: EvaluateOptions, env: EnvLookup): ModelClient {
  if (options.client !== undefined) return options.client;
  if (options.model === undefined) {
    throw new McpcastError('evaluate needs `client` or `model` ("<provider>:<model>") to drive the agent');
  }
  try {
    return new ProviderRegistry().resolve(options.model, { env, fetch: options.fetch });
  } catch (error) {
    throw new McpcastError(`model '${options.model}' could not be used: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * `options` checked and resolved.
 *
 * @throws {McpcastError} for an unknown key, both `model` and `complete`, generated tasks without
 * either, no model for the agent, a bound out of range or malformed headers.
 */
export function resolveEvaluateOptions(options: EvaluateOptions): ResolvedEvaluateOptions {
  try {
    checkOptionKeys(options, { owner: "evaluate", keys: EVALUATE_KEYS, unknown: "listed", notObject: true });
  } catch (error) {
    throw new McpcastError((error as Error).message);
  }
  if (options.model !== undefined && options.complete !== undefined) {
    throw new McpcastError("evaluate takes one of `model` and `complete` for writing tasks, not both");
  }
  const env = options.env ?? hostEnv;
  const tasks: number | readonly EvalTask[] = options.tasks ?? DEFAULT_TASKS;
  if (!Array.isArray(tasks)) positiveInteger(tasks, "tasks", MAX_TASKS);
  let complete = options.complete;
  if (complete === undefined && options.model !== undefined) {
    complete = modelCompleter(options.model, { env, fetch: options.fetch });
  }
  if (typeof tasks === "number" && complete === undefined) {
    throw new McpcastError("evaluate needs `model` or `complete` to write its tasks (or a task list)");
  }
  if (options.liveReads !== undefined && typeof options.liveReads !== "boolean") {
    throw new McpcastError("evaluate: `liveReads` must be true or false");
  }
  return {
    complete,
    client: agentClient(options, env),
    env,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    tasks,
    operations: options.operations ?? [],
    liveReads: options.liveReads ?? true,
    headers: checkHeaders(options.headers),
    maxAgentIterations: options.maxAgentIterations === undefined
      ? DEFAULT_AGENT_ITERATIONS
      : positiveInteger(options.maxAgentIterations, "maxAgentIterations", 100),
    signal: options.signal ?? new AbortController().signal,
    onProgress: options.onProgress ?? (() => {}),
  };
}
