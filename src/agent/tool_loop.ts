/**
 * The agent's tool loop for one run: a model turn; when the model asks for tools, every call of the turn
 * runs in parallel and the results go back to the model; again until the model answers with text only or
 * `max_steps` turns were taken. The final reply is the last assistant text. A failing tool never fails
 * the run: its error goes back to the model as the tool's result. Aborting `signal` (the process stops, or
 * the run times out) aborts the model request and the tool calls in flight.
 *
 * @module
 */

import type { ChatMessage, ModelAttempt, ModelClient, ToolCall, ToolSpec, Usage } from "../models/mod.ts";
import type { ToolOutcome } from "./mcp/mod.ts";

/** The tools offered to the model. */
export interface ToolBox {
  /** Specs offered with each model turn. */
  specs(): ToolSpec[];
  /** Calls a tool; resolves with an error outcome for every failure except an abort. */
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome>;
}

/** What the loop tells its caller as it goes (journal, run log, progress stream). */
export interface LoopObserver {
  /** A model turn ended. */
  turn(step: number, turn: { text: string; toolCalls: ToolCall[]; usage: Usage }): void;
  /** A model request is retried after `attempt.delay_ms`. */
  retry(step: number, attempt: ModelAttempt): void;
  /** A tool call begins. */
  toolCall(call: ToolCall, args: Record<string, unknown> | null): void;
  /** A tool call ended. */
  toolResult(call: ToolCall, outcome: ToolOutcome): void;
  /** Text as the model streams it. */
  text(delta: string): void;
}

/** Options of {@linkcode runToolLoop}. */
export interface ToolLoopOptions {
  /** The model. */
  client: ModelClient;
  /** The prompt; the loop appends the turns to a copy. */
  messages: readonly ChatMessage[];
  /** Tools offered. */
  tools: ToolBox;
  /** Most model turns. */
  maxSteps: number;
  /** Stream each turn. */
  stream: boolean;
  /** Aborts the run. */
  signal: AbortSignal;
  /** Told of every turn, retry and tool call. */
  observer: LoopObserver;
  /**
   * Budget (issue 13): asked before each model turn; a reason (e.g. `budget exceeded: max_llm_turns_per_run`)
   * ends the loop without the turn, null lets it run. @default every turn runs
   */
  beforeTurn?: (step: number) => string | null;
}

/** What a run's loop produced. */
export interface LoopResult {
  /** The last assistant text (possibly empty). */
  reply: string;
  /** Tokens used by every turn. */
  usage: Usage;
  /** Model turns taken. */
  steps: number;
  /** Whether the step cap ended the loop while the model still asked for tools. */
  capped: boolean;
  /** Budget (issue 13): the reason `beforeTurn` gave when it ended the loop. */
  stoppedBy?: string;
}

/** Runs the loop. Rejects with the model client's error (or the abort reason). */
export async function runToolLoop(options: ToolLoopOptions): Promise<LoopResult> {
  const { client, tools, observer, signal } = options;
  const messages = [...options.messages];
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let reply = "";
  for (let step = 1; step <= options.maxSteps; step++) {
    signal.throwIfAborted();
    const stoppedBy = options.beforeTurn?.(step) ?? null; // Budget (issue 13)
    if (stoppedBy !== null) return { reply, usage, steps: step - 1, capped: false, stoppedBy };
    const turn = await client.complete({
      messages,
      tools: tools.specs(),
      signal,
      stream: options.stream,
      onText: (delta) => observer.text(delta),
      onRetry: (attempt) => observer.retry(step, attempt),
    });
    usage.input_tokens += turn.usage.input_tokens;
    usage.output_tokens += turn.usage.output_tokens;
    observer.turn(step, turn);
    if (turn.text !== "") reply = turn.text;
    if (turn.toolCalls.length === 0) return { reply, usage, steps: step, capped: false };
    messages.push({ role: "assistant", content: turn.text, toolCalls: turn.toolCalls });
    const results = await Promise.all(turn.toolCalls.map((call) => callTool(call, tools, options)));
    turn.toolCalls.forEach((call, i) => {
      messages.push({
        role: "tool",
        toolCallId: call.id,
        name: call.name,
        content: results[i].content,
        isError: results[i].isError,
      });
    });
    if (step === options.maxSteps) return { reply, usage, steps: step, capped: true };
  }
  return { reply, usage, steps: options.maxSteps, capped: true };
}

async function callTool(call: ToolCall, tools: ToolBox, options: ToolLoopOptions): Promise<ToolOutcome> {
  const args = parseArguments(call.arguments);
  options.observer.toolCall(call, args);
  const outcome: ToolOutcome = args === null
    ? { content: "The tool arguments are not a JSON object; nothing was called.", isError: true }
    : await tools.call(call.name, args, options.signal);
  options.signal.throwIfAborted();
  options.observer.toolResult(call, outcome);
  return outcome;
}

function parseArguments(text: string): Record<string, unknown> | null {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : null;
  } catch {
    return null;
  }
}
