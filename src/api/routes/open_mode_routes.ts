/**
 * Open-mode route (ours, beyond spec 000): `POST /processes/{name}/rollback` undoes every self-change an
 * open-mode agent made during the current start of its process: its instructions go back to those it
 * replaced (unless an operator set newer ones), the triggers it added stop, the MCP servers it connected
 * close and the tools it created are dropped. The rollback is journaled (`self_change` of kind
 * `rollback`). A process not started has nothing to undo (self-changes end with the start) and answers
 * the same shape with nothing undone.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { openModeOf } from "../../agent/mod.ts";
import { exactly } from "../../_util/schema_proof.ts";
import { ApiError } from "../errors.ts";
import type { RollbackAnswer } from "../client_types.ts";
import { errorResponses, jsonContent, NameParamSchema } from "../schemas.ts";
import { findProcess, type RouteContext } from "./route_context.ts";

/** The rollback answer. */
export const RollbackAnswerSchema: z.ZodType<RollbackAnswer, RollbackAnswer> = exactly(
  z.object({
    name: z.string(),
    rolled_back: z.literal(true),
    instructions_restored: z.boolean(),
    triggers_removed: z.array(z.string()),
    servers_disconnected: z.array(z.string()),
    tools_dropped: z.array(z.string()),
  }),
);

/** Adds the rollback route. */
export function registerOpenModeRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "post",
    path: "/api/v1/processes/{name}/rollback",
    summary: "Undo an open-mode agent's self-changes (instructions, triggers, servers, tools) of this start",
    operationId: "rollback",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(RollbackAnswerSchema, "Rolled back"), ...errorResponses(400, 401, 404) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    if (process.config.execution_mode !== "open") {
      throw new ApiError("OPEN_MODE_DISABLED", "The process is not in open mode (execution_mode: open).");
    }
    const open = openModeOf(process);
    const summary = open
      ? await open.rollback()
      : { instructions_restored: false, triggers_removed: [], servers_disconnected: [], tools_dropped: [] };
    return c.json({ name: process.name, rolled_back: true as const, ...summary });
  });
}
