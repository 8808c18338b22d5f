/**
 * The shapes of an evaluation: its options, the tasks (as `eval/tasks.yaml` stores them), what each
 * task's agent run did, and the report.
 *
 * @module
 */

import type { ToolServer } from "../../mcp/mod.ts";
import type { ModelClient } from "../../models/mod.ts";
import type { PlanServerOptions } from "../runtime/mod.ts";
import type { EnvLookup, Operation } from "../types.ts";

/** Builds the server under evaluation (default: `(o) => buildPlanServer(plan, o)`). */
export type BuildEvalServer = (options: PlanServerOptions) => ToolServer | Promise<ToolServer>;

/** One user request an agent should complete with one tool (wire names, as in `eval/tasks.yaml`). */
export interface EvalTask {
  /** Unique id (`t1`, `t2`, ... when the model gave none). */
  id: string;
  /** The request, as a user would write it. */
  prompt: string;
  /** The tool that should complete it. */
  expected_tool: string;
  /** Why that tool (the model's note; may be empty). */
  rationale?: string;
}

/** Options of `evaluate`. */
export interface EvaluateOptions {
  /**
   * `"<provider>:<model>"`: writes the tasks (unless `complete` does) and drives the agent (unless
   * `client` does). Not together with `complete`.
   */
  model?: string;
  /**
   * Writes the tasks instead of `model` (bring your own model): a completer, answering a user prompt
   * under a system prompt with text (the same shape curation takes).
   */
  complete?: (system: string, user: string, signal?: AbortSignal) => Promise<string>;
  /** The agent loop's model; else resolved from `model`. */
  client?: ModelClient;
  /** Environment for resolving the model and for the server under evaluation. @default the process environment */
  env?: EnvLookup;
  /** The fetch of the model and of live upstream reads. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** How many tasks to generate, or an explicit list (e.g. from `eval/tasks.yaml`). @default 20 */
  tasks?: number | EvalTask[];
  /** The spec's operations: mock answers are synthesised from their success response schemas. */
  operations?: readonly Operation[];
  /** Let requests that only read-class tools make reach the real API. @default true */
  liveReads?: boolean;
  /** Headers on every MCP request (e.g. `x-api-key`). @default `MCPCAST_EVAL_HEADERS`, else per auth mode */
  headers?: Record<string, string>;
  /** Most model turns per task. @default 8 */
  maxAgentIterations?: number;
  /** Stops the evaluation (rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Told when each task starts and ends (the CLI's progress display). */
  onProgress?: (event: EvalProgress) => void;
}

/** A task started or ended (`index` counts from 1). */
export type EvalProgress =
  | { kind: "task_started"; index: number; total: number; task: EvalTask }
  | { kind: "task_ended"; index: number; total: number; task: EvalTask; result: EvalTaskResult };

/** One tool call an agent made. */
export interface EvalCall {
  /** The tool name the model asked for. */
  tool: string;
  /** Its arguments. */
  arguments: Record<string, unknown>;
  /** Whether the call succeeded. */
  ok: boolean;
  /** The tool error's code, when it failed. */
  error_code?: string;
  /** The upstream HTTP status in the error's details, when there is one. */
  status?: number;
}

/** What happened on one task. */
export interface EvalTaskResult {
  /** The task. */
  task: EvalTask;
  /** Its tool calls, in order. */
  calls: EvalCall[];
  /** No crash, and a call to the expected tool succeeded. */
  success: boolean;
  /** The first call was to the expected tool. */
  selectedFirst: boolean;
  /** The agent's final answer. */
  reply: string;
  /** Why the run crashed (at most 200 characters). */
  error?: string;
}

/** Letter grade of a score. */
export type EvalGrade = "A" | "B" | "C" | "D" | "F";

/** A tool the agent picked first instead of the expected one, and how often. */
export interface ConfusedPair {
  /** The tool the task meant. */
  expected: string;
  /** The tool called first. */
  called: string;
  /** Tasks where that happened. */
  count: number;
  /** Tasks that expected `expected`. */
  of: number;
}

/** One piece of advice: a problem (`✗`) or a suggestion (`•`). */
export interface EvalFix {
  /** `problem` (something failed) or `advice`. */
  kind: "problem" | "advice";
  /** Markdown text. */
  text: string;
}

/** The Agent Readiness report. */
export interface EvalReport {
  /** API name. */
  api: string;
  /** Letter grade. */
  grade: EvalGrade;
  /** 0.6 × success rate + 0.4 × selection rate, 3 decimals. */
  score: number;
  /** Tasks run. */
  total: number;
  /** Tasks that succeeded. */
  succeeded: number;
  /** Tasks that crashed. */
  crashed: number;
  /** `succeeded / total`. */
  successRate: number;
  /** Share of tasks whose first call was the expected tool. */
  selectionRate: number;
  /** Share of calls refused as `VALIDATION_ERROR`. */
  paramErrorRate: number;
  /** Tools some task expected that no call ever used. */
  neverUsed: string[];
  /** Listed tools no task expected. */
  notCovered: string[];
  /** Wrong first picks, most common first. */
  confusedPairs: ConfusedPair[];
  /** Upstream requests no route matched (`METHOD /path`), answered 502. */
  unmatched: string[];
  /** Upstream requests sent to the real API. */
  liveRequests: number;
  /** Upstream requests answered by a mock. */
  mockedRequests: number;
  /** Tools the server listed. */
  toolCount: number;
  /** Estimated tokens of the `tools/list` result. */
  toolListTokens: number;
  /** Ordered advice. */
  fixes: EvalFix[];
  /** Per task, in order. */
  results: EvalTaskResult[];
}
