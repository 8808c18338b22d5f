/**
 * The Tasks extension on the modern binding's SDK v2 `Server`: `tasks/get`, `tasks/update` and
 * `tasks/cancel` (custom methods for the SDK, whose own method table leaves tasks out), and the
 * extension's entry for `capabilities.extensions`.
 *
 * @module
 */

import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ToolServer } from "../tool_server.ts";
import { cancelTask, getTask, type TaskRequestInfo, TASKS_EXTENSION, updateTask } from "./task_requests.ts";

/** The server's `capabilities.extensions` entry for the Tasks extension. */
export const TASKS_CAPABILITY: Readonly<Record<string, Record<string, never>>> = Object.freeze({
  [TASKS_EXTENSION]: {},
});

// Loose on purpose: the request functions check the fields and answer the extension's error codes.
const TASK_PARAMS = z.looseObject({ taskId: z.unknown().optional() });
const UPDATE_PARAMS = z.looseObject({
  taskId: z.unknown().optional(),
  inputResponses: z.unknown().optional(),
});

/** Registers the `tasks/*` requests of `server` on `sdk`; `infoOf` gives a request's facts. */
export function bindTasks(
  sdk: Server,
  server: ToolServer,
  infoOf: (ctx: ServerContext) => TaskRequestInfo,
): void {
  sdk.setRequestHandler(
    "tasks/get",
    { params: TASK_PARAMS },
    (params, ctx) => getTask(server, params.taskId, infoOf(ctx)),
  );
  sdk.setRequestHandler(
    "tasks/update",
    { params: UPDATE_PARAMS },
    // The SDK lifts `inputResponses` out of the params (dropping entries that are not bare answers).
    (params, ctx) =>
      updateTask(server, {
        taskId: params.taskId,
        inputResponses: params.inputResponses ?? ctx.mcpReq.inputResponses ?? {},
      }, infoOf(ctx)),
  );
  sdk.setRequestHandler(
    "tasks/cancel",
    { params: TASK_PARAMS },
    (params, ctx) => cancelTask(server, params.taskId, infoOf(ctx)),
  );
}
