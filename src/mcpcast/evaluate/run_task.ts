/**
 * One task's agent run: the model gets the server's listed tools, each call goes through the MCP
 * client and is recorded (tool, arguments, ok, error code, upstream status); the loop ends when the
 * model answers with text or after `maxSteps` turns.
 *
 * @module
 */

import { type LoopObserver, runToolLoop, type ToolBox, toolOutcome } from "../../agent/mod.ts";
import type { TestClient } from "../../mcp/mod.ts";
import type { ModelClient, ToolSpec } from "../../models/mod.ts";
import type { EvalCall, EvalTask } from "./types.ts";

/** What the agent is told before each task. */
export const AGENT_INSTRUCTIONS = "You are an assistant acting for a user of this API. Complete the " +
  "user's request by calling the tools; do not ask clarifying questions, choose reasonable values " +
  "yourself. When you are done, answer briefly.";

/** Longest crash reason kept. */
const ERROR_MAX = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The error code and upstream status in a failed call's text (the tool error envelope). */
function errorOf(text: string): { error_code?: string; status?: number } {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return {};
  }
  const error = isRecord(payload) && isRecord(payload.error) ? payload.error : undefined;
  if (error === undefined) return {};
  const details = isRecord(error.details) ? error.details : {};
  return {
    ...(typeof error.code === "string" ? { error_code: error.code } : {}),
    ...(typeof details.status === "number" ? { status: details.status } : {}),
  };
}

/** A tool box whose calls go through `client` and land in `calls`. */
export function recordingToolBox(client: TestClient, specs: ToolSpec[], calls: EvalCall[]): ToolBox {
  return {
    specs: () => specs,
    call: async (name, args) => {
      const call: EvalCall = { tool: name, arguments: args, ok: false };
      calls.push(call);
      try {
        const outcome = toolOutcome({ ...await client.callTool(name, args) });
        call.ok = !outcome.isError;
        if (outcome.isError) Object.assign(call, errorOf(outcome.content));
        return outcome;
      } catch (error) {
        call.error_code = "CALL_FAILED";
        return { content: `The call failed: ${(error as Error).name}`, isError: true };
      }
    },
  };
}

const QUIET: LoopObserver = {
  turn: () => {},
  retry: () => {},
  toolCall: () => {},
  toolResult: () => {},
  text: () => {},
};

/** What one task's run produced. */
export interface TaskRun {
  /** Calls in order. */
  calls: EvalCall[];
  /** The agent's last text. */
  reply: string;
  /** Why it crashed. */
  error?: string;
}

/** Runs `task`; a crash is recorded, an abort rejects. */
export async function runTask(
  task: EvalTask,
  setup: { model: ModelClient; mcp: TestClient; specs: ToolSpec[]; maxSteps: number; signal: AbortSignal },
): Promise<TaskRun> {
  const calls: EvalCall[] = [];
  try {
    const result = await runToolLoop({
      client: setup.model,
      messages: [{ role: "system", content: AGENT_INSTRUCTIONS }, { role: "user", content: task.prompt }],
      tools: recordingToolBox(setup.mcp, setup.specs, calls),
      maxSteps: setup.maxSteps,
      stream: false,
      signal: setup.signal,
      observer: QUIET,
    });
    return { calls, reply: result.reply };
  } catch (error) {
    if (setup.signal.aborted) throw setup.signal.reason;
    const message = error instanceof Error ? error.message : "the agent run failed";
    return { calls, reply: "", error: message.slice(0, ERROR_MAX) };
  }
}
