/**
 * Runtime routes: health, status, start-all, stop-all, shutdown.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { describeError } from "../../_util/errors.ts";
import { errorResponses, jsonContent, ProcessStatusSchema } from "../schemas.ts";
import type { RouteContext } from "./route_context.ts";

const HealthSchema = z.object({ status: z.literal("healthy"), process_count: z.number().int() }).openapi(
  "Health",
);
const RuntimeStatusSchema = z.object({
  process_count: z.number().int(),
  processes: z.record(z.string(), ProcessStatusSchema),
}).openapi("RuntimeStatus");

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
      200: jsonContent(z.object({ status: z.literal("started") }), "Started"),
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
      200: jsonContent(z.object({ status: z.literal("stopped") }), "Stopped"),
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
      202: jsonContent(z.object({ status: z.literal("shutting_down") }), "Shutting down"),
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
