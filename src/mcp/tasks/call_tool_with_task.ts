/**
 * The task-aware `tools/call` of a 2026-07-28 request (SEP-2663): the call runs through the pipeline
 * with a {@linkcode TaskCallSession}; when its handler calls `startTask(ctx)` the request answers with
 * the new task and the call goes on in the background, its outcome recorded on the task.
 *
 * @module
 */

import { type CallToolResult, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { CallInfo } from "../pipeline.ts";
import * as requests from "../requests.ts";
import { internalsOf, type ToolServer } from "../tool_server.ts";
import type { TaskRecord } from "./task_record.ts";
import { callerKey, declaresTasks, missingExtension, taskStoreOf } from "./task_requests.ts";
import { TaskCallSession } from "./task_session.ts";
import type { TaskView } from "./task_view.ts";

/** A `tools/call` answer that created a task (`resultType: "task"`). */
export type CreateTaskAnswer = TaskView & { resultType: "task" };

function protocolFailure(
  result: CallToolResult,
): { code: number; message: string; data?: unknown } | undefined {
  if (result.isError !== true) return undefined;
  const first = result.content[0];
  if (first?.type !== "text") return undefined;
  try {
    const payload = JSON.parse(first.text) as { error?: { code?: unknown } };
    if (payload.error?.code !== "INTERNAL_ERROR") return undefined;
    return { code: ProtocolErrorCode.InternalError, message: "Internal error", data: payload.error };
  } catch {
    return undefined;
  }
}

function settle(record: TaskRecord, running: Promise<CallToolResult>): void {
  running.then(
    (result) => {
      const failure = protocolFailure(result);
      if (failure) record.fail(failure);
      else record.complete({ ...result, resultType: "complete" });
    },
    () => record.fail({ code: ProtocolErrorCode.InternalError, message: "Internal error" }),
  );
}

/**
 * `tools/call` on a 2026-07-28 request: the call's own result, or, when its handler called
 * `startTask(ctx)` and the client declared the extension, the new task (`resultType: "task"`) while
 * the call goes on in the background. An `InputRequiredSignal` from before the hand-off rejects, for
 * the binding's input rounds.
 */
export async function callToolWithTask(
  server: ToolServer,
  name: string,
  args: unknown,
  info: CallInfo & { capabilities?: Readonly<Record<string, unknown>> },
): Promise<CallToolResult | CreateTaskAnswer> {
  const definition = internalsOf(server).registry.tools.get(name);
  if (!definition?.task) return await requests.callTool(server, name, args, info);
  const declared = declaresTasks(info.capabilities);
  if (definition.task === "required" && !declared) throw missingExtension(`The tool '${name}'`);
  if (!declared) return await requests.callTool(server, name, args, info);
  const store = taskStoreOf(server);
  const owner = await callerKey(server, name, info);
  const session = new TaskCallSession(info.session, () => store.create(owner, name));
  const abort = new AbortController();
  const onRequestAbort = () => {
    if (!session.task) abort.abort(info.signal.reason);
  };
  info.signal.addEventListener("abort", onRequestAbort, { once: true });
  session.handedOff.then((record) => {
    info.signal.removeEventListener("abort", onRequestAbort);
    record.cancelled.addEventListener("abort", () => abort.abort(record.cancelled.reason), { once: true });
  });
  const running = requests.callTool(server, name, args, { ...info, session, signal: abort.signal });
  const first = await Promise.race([
    running.then((result) => ({ result })),
    session.handedOff.then((record) => ({ record })),
  ]);
  if ("result" in first && !session.task) {
    info.signal.removeEventListener("abort", onRequestAbort);
    return first.result;
  }
  const record = session.task!;
  settle(record, running);
  return { resultType: "task", ...record.view() };
}
