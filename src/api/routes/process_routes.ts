/**
 * Process routes: list, get, metrics, delete, and the lifecycle operations.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { ProcessOperation } from "../../runtime/mod.ts";
import { OPERATION_FAILURE, operationFailure, runtimeFailure } from "../failures.ts";
import {
  errorResponses,
  jsonContent,
  NameParamSchema,
  ProcessListSchema,
  ProcessStatusSchema,
  ResumedSchema,
  StateAnswerSchema,
  SuspendedSchema,
} from "../schemas.ts";
import { findProcess, type RouteContext } from "./route_context.ts";

/** Adds the process routes (deploy lives in deploy_route.ts). */
export function registerProcessRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "get",
    path: "/api/v1/processes",
    summary: "List processes",
    operationId: "listProcesses",
    responses: {
      200: jsonContent(ProcessListSchema, "Processes"),
      ...errorResponses(401),
    },
  }, (c) => {
    const processes = runtime.list();
    return c.json({ processes, total: processes.length });
  });

  for (const [suffix, operationId] of [["", "getProcess"], ["/metrics", "getMetrics"]] as const) {
    route({
      method: "get",
      path: `/api/v1/processes/{name}${suffix}`,
      summary: suffix ? "Process metrics (same body as the status)" : "Process status",
      operationId,
      request: { params: NameParamSchema },
      responses: { 200: jsonContent(ProcessStatusSchema, "Status"), ...errorResponses(401, 404) },
    }, (c) => c.json(findProcess(runtime, c.req.param("name") ?? "").status()));
  }

  route({
    method: "delete",
    path: "/api/v1/processes/{name}",
    summary: "Stop and remove a process",
    operationId: "removeProcess",
    request: { params: NameParamSchema },
    responses: { 204: { description: "Removed" }, ...errorResponses(401, 404, 500) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    try {
      await runtime.remove(process.name);
    } catch (error) {
      throw runtimeFailure("STOP_FAILED", {
        cause: error,
        logger: ctx.logger,
        fields: { process: process.name },
      });
    }
    return c.body(null, 204);
  });

  const answers: Record<ProcessOperation, z.ZodType> = {
    start: StateAnswerSchema,
    stop: StateAnswerSchema,
    restart: StateAnswerSchema,
    suspend: SuspendedSchema,
    resume: ResumedSchema,
  };
  for (const operation of Object.keys(OPERATION_FAILURE) as ProcessOperation[]) {
    route({
      method: "post",
      path: `/api/v1/processes/{name}/${operation}`,
      summary: `${operation[0].toUpperCase()}${operation.slice(1)} a process`,
      operationId: `${operation}Process`,
      request: { params: NameParamSchema },
      responses: {
        200: jsonContent(answers[operation], "Done"),
        ...errorResponses(400, 401, 404, 500),
      },
    }, async (c) => {
      const process = findProcess(runtime, c.req.param("name") ?? "");
      const state = await runtime[operation](process.name).catch((error: unknown) => {
        throw operationFailure(operation, error, { logger: ctx.logger, process: process.name });
      });
      if (operation === "suspend") return c.json({ name: process.name, suspended: true, state });
      if (operation === "resume") return c.json({ name: process.name, resumed: true, state });
      return c.json({ name: process.name, state });
    });
  }
}
