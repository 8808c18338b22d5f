/**
 * One run: scan the payload, assemble the prompt, run the tool loop, keep the exchange, checkpoint.
 *
 * Journal entries written (level `full` for the first three; every level for the others): `model_turn`
 * (assistant text, tool calls, usage), `tool_call`
 * (tool and arguments), `tool_result` (the result's first {@linkcode TOOL_RESULT_JOURNAL_CHARS} characters),
 * `model_retry` (each retried model request), `user_prompt` `{run_id, content}` (the trigger message, when
 * the prompt is built) and `assistant_message` `{run_id, content}` (the final reply) for rewind, and after a
 * successful run `checkpoint` `{invocation, context, conversation, budget, mission}` (`budget`: the day counters,
 * when a budget is on; `mission`: its state, counters and evaluations, when a mission is on). After a successful
 * run the mission counts it and, when due, asks its judge (`mission_evaluation` entries). The runtime adds `trigger_event` (when the event arrives),
 * `invocation_start`, `invocation_result` (reply and usage) and `error`. Secret values are replaced by
 * `[REDACTED]` in every entry.
 *
 * @module
 */

import { ModelError } from "../models/mod.ts";
import { scanPayload } from "../guardrails/mod.ts";
import { RunBlockedError, RunError, type RunRequest, type RunResult } from "../runtime/mod.ts";
import type { AgentSession } from "./agent_session.ts";
import { buildPrompt, type PromptMemory } from "./prompt.ts";
import { renderPayload, triggerMessage } from "./trigger_message.ts";
import { runToolLoop, type ToolBox } from "./tool_loop.ts";
import { builtinTools } from "./builtin_tools.ts";
import { redactStrings } from "../_util/redact_strings.ts";
import { StreamRedactor } from "./stream_redactor.ts";
import { withToolHooks } from "./tool_hooks.ts";
import { withOpenMode } from "./open_mode/mod.ts";
import { withHealthWatch } from "./tool_health.ts";
import { withBudget } from "./budget_tools.ts";

/** Characters of a tool result kept in the journal and the run log. */
export const TOOL_RESULT_JOURNAL_CHARS = 2000;

/** Runs the agent for one event. */
export async function runAgent(run: RunRequest, session: AgentSession): Promise<RunResult> {
  const { config, event, journal, report } = run;
  const redact = (text: string) => run.secrets.redact(text);
  const shown = <T>(data: T): T => run.secrets.redacts ? redactStrings(data, redact) : data;
  // The process journal redacts secret values itself.
  const record = (type: string, data: Record<string, unknown>) =>
    void journal?.record(type, { run_id: report.runId, ...data });
  if (session.scanner) {
    const scan = await scanPayload(event.payload, session.scanner, {
      maxChars: config.trigger_delivery.max_payload_chars,
    });
    if (scan.flagged) {
      throw new RunBlockedError("blocked by guardrails", `payload flagged: ${scan.categories.join(", ")}`);
    }
  }
  const trigger = triggerMessage(event, { maxPayloadChars: config.trigger_delivery.max_payload_chars });
  const seen = run.inbox?.forRun(); // inbox (issue 12): what this run sees, settled after a successful run
  // Rewind (issue 13): the conversation entries every journal level keeps (rewind rebuilds from them).
  record("user_prompt", { content: redact(trigger) });
  const messages = buildPrompt({
    operatorMessages: seen?.block,
    budgetRemaining: run.budget?.injectRemaining ? run.budget.remaining() : undefined, // Budget (issue 13)
    mission: run.mission?.view(), // Mission (issue 13)
    config,
    state: run.context.view().state,
    memories: await relevantMemories(run, renderPayload(event.payload, 2000)),
    conversation: run.conversation.messages(),
    trigger,
  });
  // Hooks: pre_tool_call / post_tool_call around each tool call (the same box when no such hook exists).
  const hooked = withToolHooks(toolBox(run, session), run.hooks, { runId: report.runId, redact });
  // Budget (issue 13): checked before hooks and the tool; Health (issue 13): sees every call, refused or not.
  const tools = withHealthWatch(withBudget(hooked, run.budget), run.health);
  const budget = run.budget;
  const bounds = runBounds(run.signal, config.run_timeout);
  const signal = bounds.signal;
  const streamed = new StreamRedactor(run.secrets.values(), redact, (text) => report.text(text));
  let result;
  try {
    result = await runToolLoop({
      client: session.client,
      messages,
      tools,
      maxSteps: config.max_steps,
      stream: config.stream,
      signal,
      beforeTurn: budget && (() => {
        const check = budget.beforeTurn();
        return check.ok ? null : `budget exceeded: ${check.violation.limit}`;
      }),
      observer: {
        text: (delta) => streamed.push(delta),
        turn: (step, turn) => {
          streamed.flush();
          report.usage(turn.usage);
          budget?.addTokens(turn.usage.input_tokens + turn.usage.output_tokens);
          const data = { step, text: turn.text, tool_calls: turn.toolCalls, usage: turn.usage };
          report.step("model_turn", shown(data));
          record("model_turn", data);
        },
        retry: (step, attempt) => {
          report.step("model_retry", { step, ...attempt });
          record("model_retry", { step, ...attempt });
        },
        toolCall: (call, args) => {
          const data = { tool: call.name, call_id: call.id, args: args ?? { raw: call.arguments } };
          report.step("tool_call", shown(data));
          record("tool_call", data);
        },
        toolResult: (call, outcome) => {
          const data = {
            tool: call.name,
            call_id: call.id,
            is_error: outcome.isError,
            result: outcome.content.slice(0, TOOL_RESULT_JOURNAL_CHARS),
          };
          report.step("tool_result", shown(data));
          record("tool_result", data);
        },
      },
    });
  } catch (error) {
    if (run.signal.aborted) throw new RunError("the process stopped during the run", { cause: error });
    if (signal.aborted) throw new RunError(`the run took longer than run_timeout (${config.run_timeout} s)`);
    if (error instanceof ModelError) throw new RunError(modelFailure(error), { cause: error });
    throw error;
  } finally {
    bounds.release();
  }
  const reply = redact(result.reply);
  if (result.capped) {
    report.step("note", { text: `stopped after max_steps (${config.max_steps}) model turns` });
  }
  if (result.stoppedBy) report.step("note", { text: `stopped: ${result.stoppedBy}` });
  if (config.context.conversation_history) {
    run.conversation.append([
      { role: "user", content: redact(trigger) },
      { role: "assistant", content: reply },
    ], config.context.conversation_max_messages);
  }
  record("assistant_message", { content: reply }); // rewind (issue 13)
  seen?.settle(result.reply, { invocationId: String(run.invocation), redact }); // inbox (issue 12): rule 10
  // Mission (issue 13): counts the run and, when due, asks the judge (its failures are journaled, not thrown).
  if (run.mission && session.judge) {
    await run.mission.afterRun(
      { reply, conversation: run.conversation.messages(), state: run.context.view().state },
      { judge: session.judge, signal: run.signal },
    );
  }
  record("checkpoint", {
    invocation: run.invocation,
    context: run.context.view().state,
    conversation: run.conversation.messages(),
    budget: budget?.snapshot(),
    mission: run.mission?.snapshot(), // Mission (issue 13)
  });
  return { response: reply, usage: result.usage };
}

function modelFailure(error: ModelError): string {
  const status = error.status === null ? "" : ` (HTTP ${error.status})`;
  return `the model request failed: ${error.kind}${status}`;
}

async function relevantMemories(run: RunRequest, query: string): Promise<PromptMemory[]> {
  const memory = run.memory;
  if (!memory) return [];
  const { memory_max, memory_min_score } = run.config.context;
  return await memory.search(query, { limit: memory_max, minScore: memory_min_score });
}

/** Built-in tools first, then the MCP servers' tools (then, in open mode, the meta-tools and the agent's own). */
function toolBox(run: RunRequest, session: AgentSession): ToolBox {
  const builtins = builtinTools({
    context: run.context,
    memory: run.memory,
    secrets: run.config.secrets.enabled ? run.secrets : undefined,
    memoryMax: run.config.context.memory_max,
  });
  const connections = session.connections;
  const box: ToolBox = {
    specs: () => [
      ...[...builtins.values()].map((tool) => tool.spec),
      ...(connections?.tools() ?? []).map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
      })),
    ],
    call: (name, args, signal) => {
      const builtin = builtins.get(name);
      if (builtin) return builtin.run(args);
      if (connections) return connections.call(name, args, { signal });
      return Promise.resolve({ content: `No tool named ${name}.`, isError: true });
    },
  };
  // Open mode (issue 12): meta-tools, created tools and the agent's own servers' tools.
  return session.openMode ? withOpenMode(box, session.openMode, run.config) : box;
}

/**
 * A signal aborted when the process stops (`stopped`) or after `timeout` seconds (0: never). Call `release`
 * when the run ends: it clears the timer and the listener, so nothing outlives the run.
 */
function runBounds(stopped: AbortSignal, timeout: number): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onStop = () => controller.abort(stopped.reason);
  if (stopped.aborted) onStop();
  else stopped.addEventListener("abort", onStop, { once: true });
  const timer = timeout > 0
    ? setTimeout(
      () => controller.abort(new DOMException("run_timeout reached", "TimeoutError")),
      timeout * 1000,
    )
    : undefined;
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      stopped.removeEventListener("abort", onStop);
    },
  };
}
