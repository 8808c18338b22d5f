/**
 * The Tasks extension's requests (SEP-2663, `io.modelcontextprotocol/tasks`), transport-free like
 * `requests.ts`: `tasks/get`, `tasks/update` and `tasks/cancel` (the task-aware `tools/call` is
 * `callToolWithTask`), and what they share: the extension id, its declaration, the caller's key. The
 * extension has no `tasks/result` and no `tasks/list` (a binding leaves them unregistered: -32601).
 *
 * A request whose `_meta` client capabilities do not declare the extension gets `-32021` from the
 * `tasks/*` methods, and from `tools/call` of a `task: "required"` tool; a task another caller
 * created, or one that expired, is unknown (`-32602`).
 *
 * @module
 */

import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import { isAuthMiddleware } from "../auth/auth_middleware.ts";
import type { CallInfo } from "../pipeline.ts";
import { internalsOf, type ToolServer } from "../tool_server.ts";
import type { TaskRecord } from "./task_record.ts";
import type { DetailedTaskView } from "./task_view.ts";
import type { TaskListener, TaskStore } from "./task_store.ts";
import { ownerOf } from "./task_session.ts";

/** The extension id, as `capabilities.extensions` and `_meta` client capabilities carry it. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** `tasks/get`'s answer. */
export type GetTaskAnswer = DetailedTaskView & { resultType: "complete" };

/** The empty acknowledgement of `tasks/update` and `tasks/cancel`. */
export type TaskAck = {
  /** Always `"complete"`. */
  resultType: "complete";
};

/** The task store of `server`. */
export function taskStoreOf(server: ToolServer): TaskStore {
  return internalsOf(server).tasks;
}

/**
 * Calls `listener` after every change of one of `server`'s tasks (status, progress message, input
 * asked or answered), with the task as `tasks/get` shows it and its owner's principal key: the
 * source for `notifications/tasks` status notifications. Returns the function that stops it.
 */
export function watchTasks(server: ToolServer, listener: TaskListener): () => void {
  return taskStoreOf(server).watch(listener);
}

/** Whether client capabilities (from a request's `_meta`) declare the Tasks extension. */
export function declaresTasks(capabilities: Readonly<Record<string, unknown>> | undefined): boolean {
  const extensions = capabilities?.extensions;
  if (typeof extensions !== "object" || extensions === null) return false;
  const entry = (extensions as Record<string, unknown>)[TASKS_EXTENSION];
  return typeof entry === "object" && entry !== null;
}

/** The `-32021` error for `what` from a request that did not declare the extension. */
export function missingExtension(what: string): ProtocolError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in the request's _meta client capabilities`,
  );
}

/**
 * The principal key of a request's caller, identified from its headers by the server's auth
 * middleware, else the tool's own (anonymous when there is none or it refuses): the same for the
 * call that creates a task and for every later request about it.
 */
export async function callerKey(server: ToolServer, tool: string, info: CallInfo): Promise<string> {
  const auth = server.middleware.find(isAuthMiddleware) ??
    internalsOf(server).registry.tools.get(tool)?.middleware.find(isAuthMiddleware);
  if (!auth) return ownerOf(undefined);
  return ownerOf(await auth.identify(info.meta, { ipAddress: info.ipAddress }).catch(() => undefined));
}

async function findTask(server: ToolServer, taskId: unknown, info: CallInfo): Promise<TaskRecord> {
  if (typeof taskId !== "string" || taskId === "") {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "params.taskId must be a non-empty string");
  }
  const store = taskStoreOf(server);
  const tool = store.toolOf(taskId);
  const record = tool === undefined ? undefined : store.get(taskId, await callerKey(server, tool, info));
  if (!record) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);
  return record;
}

/** What the `tasks/*` requests take besides their params. */
export type TaskRequestInfo = CallInfo & { capabilities?: Readonly<Record<string, unknown>> };

/** `tasks/get`: the task with its pending input, result or error. */
export async function getTask(
  server: ToolServer,
  taskId: unknown,
  info: TaskRequestInfo,
): Promise<GetTaskAnswer> {
  if (!declaresTasks(info.capabilities)) throw missingExtension("tasks/get");
  const record = await findTask(server, taskId, info);
  return { resultType: "complete", ...record.detailed() };
}

/** `tasks/update`: delivers `inputResponses` to the task's pending requests (unknown keys are ignored). */
export async function updateTask(
  server: ToolServer,
  params: { taskId?: unknown; inputResponses?: unknown },
  info: TaskRequestInfo,
): Promise<TaskAck> {
  if (!declaresTasks(info.capabilities)) throw missingExtension("tasks/update");
  const responses = params.inputResponses;
  if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "params.inputResponses must be an object");
  }
  const record = await findTask(server, params.taskId, info);
  try {
    record.answer(responses as Record<string, unknown>);
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, (error as Error).message);
  }
  return { resultType: "complete" };
}

/** `tasks/cancel`: cancels a running task; the same acknowledgement for one that has ended. */
export async function cancelTask(
  server: ToolServer,
  taskId: unknown,
  info: TaskRequestInfo,
): Promise<TaskAck> {
  if (!declaresTasks(info.capabilities)) throw missingExtension("tasks/cancel");
  (await findTask(server, taskId, info)).cancel();
  return { resultType: "complete" };
}
