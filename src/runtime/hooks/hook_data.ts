/**
 * The `data` each hook event carries, and the answer of a `pre_tool_call` check.
 *
 * @module
 */

import type { ProcessState } from "../lifecycle.ts";
import type { RunRecord, TokenUsage } from "../run_log.ts";

/** `run_start` data: which run begins and what woke it (the fields of the run's record). */
export type RunStartHookData = Pick<
  RunRecord,
  "run_id" | "invocation" | "attempt" | "event_id" | "trigger_id" | "trigger_type"
>;

/** `run_end` data: the run's facts plus how it ended. */
export interface RunEndHookData extends RunStartHookData {
  /** `succeeded`, `failed`, or `blocked` (refused by guardrails or the payload scan). */
  status: "succeeded" | "failed" | "blocked";
  /** The final reply (first 2000 characters), null when the run did not succeed. */
  reply: string | null;
  /** Tokens the run used. */
  usage: TokenUsage;
  /** How long the run took. */
  duration_ms: number;
  /** Why it failed, in the runtime's words; null when it succeeded. */
  error: string | null;
}

/** `pre_tool_call` data: the call the model asked for. */
export interface ToolCallHookData {
  /** Id of the run. */
  run_id: string;
  /** Tool name. */
  tool: string;
  /** Arguments the model gave. */
  arguments: Record<string, unknown>;
}

/** `post_tool_call` data: the call and what it answered. */
export interface ToolResultHookData extends ToolCallHookData {
  /** The result text (first 2000 characters). */
  result: string;
  /** Whether the tool answered an error (a refused call included). */
  is_error: boolean;
}

/** `state_change` data: a lifecycle transition. */
export interface StateChangeHookData {
  /** State left. */
  from: ProcessState;
  /** State entered. */
  to: ProcessState;
  /** Why. */
  reason: string;
}

/** `message_received` data: the inbox message or question as the inbox lists it. */
export type MessageReceivedHookData = Record<string, unknown>;

/** The data of each event. */
export interface HookEventData {
  /** A run begins. */
  run_start: RunStartHookData;
  /** A run ended. */
  run_end: RunEndHookData;
  /** The model asked for a tool call (hooks may refuse it). */
  pre_tool_call: ToolCallHookData;
  /** A tool call ended. */
  post_tool_call: ToolResultHookData;
  /** The process changed state. */
  state_change: StateChangeHookData;
  /** An inbox message or question arrived. */
  message_received: MessageReceivedHookData;
}

/** Events whose hooks only hear of them (every event but `pre_tool_call`). */
export type NotifyEvent = Exclude<keyof HookEventData, "pre_tool_call">;

/** Whether a tool call may go ahead, after the `pre_tool_call` hooks. */
export type HookDecision = { allow: true } | { allow: false; reason: string };
