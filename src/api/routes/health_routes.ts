/**
 * Health routes (issue 13): `GET|DELETE /processes/{name}/health/anomalies`.
 *
 * GET answers the anomalies held, oldest first, as a JSON array of `{type, description, timestamp,
 * run_id, details}`. DELETE drops them and every cooldown and answers `{name, anomalies_cleared: n}`.
 * Both answer 400 HEALTH_DISABLED for a process whose current config has `health.enabled` false.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { exactly } from "../../_util/schema_proof.ts";
import { AnomalySchema, errorResponses, jsonContent, NameParamSchema } from "../schemas.ts";
import type { AnomaliesClearedAnswer } from "../client_types.ts";
import { findProcess, type RouteContext } from "./route_context.ts";

const AnomalyListSchema = z.array(AnomalySchema).openapi("AnomalyList");

const AnomaliesClearedSchema: z.ZodType<AnomaliesClearedAnswer, AnomaliesClearedAnswer> = exactly(
  z.object({ name: z.string(), anomalies_cleared: z.number().int() }).openapi("AnomaliesCleared"),
);

/** Adds the health routes. */
export function registerHealthRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  const path = "/api/v1/processes/{name}/health/anomalies";
  route({
    method: "get",
    path,
    summary: "List the process's health anomalies, oldest first",
    operationId: "listAnomalies",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(AnomalyListSchema, "Anomalies"), ...errorResponses(400, 401, 404) },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    return c.json(process.health.anomalies()); // 400 HEALTH_DISABLED when off
  });

  route({
    method: "delete",
    path,
    summary: "Clear the anomaly history and every cooldown",
    operationId: "clearAnomalies",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(AnomaliesClearedSchema, "Cleared"), ...errorResponses(400, 401, 404) },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    return c.json({ name: process.name, anomalies_cleared: process.health.clear() });
  });
}
