/**
 * Trigger routes: `GET|POST /processes/{name}/triggers`, `DELETE /processes/{name}/triggers/{trigger_id}`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { describeError, publicDetails } from "../../_util/errors.ts";
import { checkEnvReferences, checkTriggerPaths, isRuntimeError, parseSection } from "../../runtime/mod.ts";
import { addTrigger, listTriggers, removeTrigger } from "../../triggers/mod.ts";
import { ApiError, newErrorId } from "../errors.ts";
import {
  errorResponses,
  jsonContent,
  NameParamSchema,
  TriggerAddedSchema,
  TriggerListSchema,
  TriggerRemovedSchema,
} from "../schemas.ts";
import { findProcess, refusePolicy, type RouteContext } from "./route_context.ts";

const TriggerParamsSchema = NameParamSchema.extend({
  trigger_id: z.string().openapi({ param: { name: "trigger_id", in: "path" }, example: "cron-3f9a1c2b7d" }),
});

/** Adds the trigger routes. */
export function registerTriggerRoutes(ctx: RouteContext): void {
  const { route, runtime, logger, policy } = ctx;
  route({
    method: "get",
    path: "/api/v1/processes/{name}/triggers",
    summary: "List the process's triggers (configured ones with stable ids, then dynamic ones)",
    operationId: "listTriggers",
    request: { params: NameParamSchema },
    responses: {
      200: jsonContent(TriggerListSchema, "Triggers"),
      ...errorResponses(401, 404),
    },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const triggers = listTriggers(process);
    return c.json({ name: process.name, triggers, count: triggers.length });
  });

  route({
    method: "post",
    path: "/api/v1/processes/{name}/triggers",
    summary: "Add a trigger: live now when the process is started, else from its next start",
    operationId: "addTrigger",
    takesBody: true,
    request: {
      params: NameParamSchema,
      body: {
        content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
        required: true,
      },
    },
    responses: {
      201: jsonContent(TriggerAddedSchema, "Added"),
      ...errorResponses(400, 401, 403, 404, 409, 422),
    },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const body = c.get("body") ?? {};
    refusePolicy(checkEnvReferences(body, policy, { prefix: "" }), { logger, process: process.name });
    const parsed = parseSection("triggers", [body], { prefix: "" });
    if (!parsed.ok) {
      const details = parsed.issues.map((i) => ({
        field: i.field.replace(/^\[0\]\.?/, "") || "(body)",
        expected: i.expected,
      }));
      throw new ApiError(
        "INVALID_CONFIG",
        `The trigger is not valid: ${details.map((d) => d.field).join(", ")}.`,
        {
          details,
        },
      );
    }
    const config = parsed.config[0];
    refusePolicy(await checkTriggerPaths(config, policy), { logger, process: process.name });
    try {
      const added = await addTrigger(runtime, process, { config, raw: body });
      return c.json({ name: process.name, trigger_added: true, ...added, trigger_type: config.type }, 201);
    } catch (error) {
      if (isRuntimeError(error, "TRIGGER_EXISTS")) throw error; // answered by the API's onError
      const errorId = newErrorId();
      logger.warning("trigger could not be started", {
        process: process.name,
        error_id: errorId,
        cause: describeError(error),
      });
      // A cause the operator must fix (a port in use) is named by the body's own field.
      const details = publicDetails(error).map(({ field, expected }) => ({
        field: field.replace(/^config\.triggers\[[^\]]*\]\./, ""),
        expected,
      }));
      throw new ApiError("INVALID_CONFIG", "The trigger is valid but could not be started.", {
        errorId,
        details: details.length > 0 ? details : undefined,
      });
    }
  });

  route({
    method: "delete",
    path: "/api/v1/processes/{name}/triggers/{trigger_id}",
    summary: "Remove a trigger (stable id, dynamic id, or deprecated static_<n>)",
    operationId: "removeTrigger",
    request: { params: TriggerParamsSchema },
    responses: {
      200: jsonContent(TriggerRemovedSchema, "Removed"),
      ...errorResponses(401, 404),
    },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    // TRIGGER_NOT_FOUND is answered by the API's onError.
    const removed = await removeTrigger(runtime, process, { triggerId: c.req.param("trigger_id") ?? "" });
    return c.json({ name: process.name, ...removed });
  });
}
