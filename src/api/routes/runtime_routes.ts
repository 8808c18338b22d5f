/**
 * Runtime routes: health, status, start-all, stop-all, shutdown.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import {
  errorResponses,
  HealthSchema,
  jsonContent,
  RuntimeStatusSchema,
  ShuttingDownSchema,
  StartedAllSchema,
  StoppedAllSchema,
} from "../schemas.ts";
import type { RouteContext } from "./route_context.ts";

/** Adds the runtime routes. */
export function registerRuntimeRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "get",
    path: "/api/v1/health",
    summary: "Liveness; the only route that needs no token",
    operationId: "health",
    security: [],
    responses: { 200: jsonContent(HealthSchema, "Healthy") },
  }, (c) => c.json({ status: "healthy", process_count: runtime.size }));

  route({
    method: "get",
    path: "/api/v1/runtime/status",
    summary: "Status of the runtime and every process",
    operationId: "runtimeStatus",
    responses: { 200: jsonContent(RuntimeStatusSchema, "Runtime status"), ...errorResponses(401) },
  }, (c) => c.json(runtime.status()));

  route({
    method: "post",
    path: "/api/v1/runtime/start-all",
    summary: "Start every created, stopped or failed process (failures are logged)",
    operationId: "startAll",
    responses: {
      200: jsonContent(StartedAllSchema, "Started"),
      ...errorResponses(401),
    },
  }, async (c) => {
    await runtime.startAll();
    return c.json({ status: "started" });
  });

  route({
    method: "post",
    path: "/api/v1/runtime/stop-all",
    summary: "Stop every started process",
    operationId: "stopAll",
    responses: {
      200: jsonContent(StoppedAllSchema, "Stopped"),
      ...errorResponses(401),
    },
  }, async (c) => {
    await runtime.stopAll();
    return c.json({ status: "stopped" });
  });

  const onShutdown = ctx.options.onShutdown;
  if (!onShutdown) return;
  route({
    method: "post",
    path: "/api/v1/runtime/shutdown",
    summary: "Answer 202, then shut the server down (exists only when the server has a shutdown callback)",
    operationId: "shutdown",
    responses: {
      202: jsonContent(ShuttingDownSchema, "Shutting down"),
      ...errorResponses(401),
    },
  }, (c) => {
    setTimeout(async () => {
      try {
        await onShutdown();
      } catch (error) {
        ctx.logger.error("shutdown callback failed", { error: describeError(error) });
      }
    }, 0);
    return c.json({ status: "shutting_down" }, 202);
  });
}
