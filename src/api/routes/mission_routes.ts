/**
 * Mission routes (issue 13): `GET /processes/{name}/mission`, `POST .../mission/fail` (`{reason?}`,
 * default "failed by an operator"), `POST .../mission/pause`, `POST .../mission/resume`, and the live
 * `PATCH /processes/{name}/mission` (the live-patch rules of `live_patch_routes.ts`, effective
 * `immediate`: the next run, evaluation and `[Mission]` prompt block use it; progress is kept).
 *
 * GET, fail, pause and resume answer the mission view `{name, state, objective, success_criteria,
 * invocation_count, activated_at, reason, evaluations: [{evaluation, invocation, achieved, confidence,
 * reasoning, progress_summary, model, timestamp}]}`. Without a mission (`mission.enabled` false) they
 * answer 400 MISSION_DISABLED; an operation the mission's state does not allow answers 409 MISSION_STATE
 * (fail: active or paused; pause: active; resume: paused).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { type AgentProcess, requireMission } from "../../runtime/mod.ts";
import { ApiError } from "../errors.ts";
import { errorResponses, jsonContent, NameParamSchema } from "../schemas.ts";
import { MissionAnswerSchema, MissionPatchAnswerSchema } from "../mission_schemas.ts";
import type { MissionAnswer } from "../mission_types.ts";
import { findProcess, type RouteContext } from "./route_context.ts";
import { patchSection } from "./live_patch_routes.ts";

/** Reason of an operator fail without one. */
export const DEFAULT_FAIL_REASON = "failed by an operator";

const FailBodySchema = z.object({ reason: z.string().optional() }).openapi("MissionFailBody");

/** Adds the mission routes. */
export function registerMissionRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  const base = "/api/v1/processes/{name}/mission";
  const answer = (process: AgentProcess): MissionAnswer => ({
    name: process.name,
    ...requireMission(process).view(),
  });

  route({
    method: "get",
    path: base,
    summary: "The mission: state, objective, invocation count and evaluation history",
    operationId: "getMission",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(MissionAnswerSchema, "The mission"), ...errorResponses(400, 401, 404) },
  }, (c) => c.json(answer(findProcess(runtime, c.req.param("name") ?? ""))));

  route({
    method: "post",
    path: `${base}/fail`,
    summary: "Fail an active or paused mission",
    operationId: "failMission",
    takesBody: true,
    request: {
      params: NameParamSchema,
      body: { content: { "application/json": { schema: FailBodySchema } }, required: false },
    },
    responses: {
      200: jsonContent(MissionAnswerSchema, "The failed mission"),
      ...errorResponses(400, 401, 404, 409, 422),
    },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const body = c.get("body") ?? {};
    const unknown = Object.keys(body).filter((key) => key !== "reason");
    if (unknown.length > 0) {
      throw new ApiError("UNKNOWN_FIELD", `Unknown field(s): ${unknown.join(", ")}.`, {
        details: unknown.map((field) => ({ field, expected: "only reason" })),
      });
    }
    const reason = body.reason;
    if (reason !== undefined && (typeof reason !== "string" || reason.trim() === "")) {
      throw new ApiError("INVALID_FIELD", "reason must be a non-empty string.", {
        details: [{ field: "reason", expected: "a non-empty string" }],
      });
    }
    requireMission(process).fail(reason ?? DEFAULT_FAIL_REASON);
    return c.json(answer(process));
  });

  for (const operation of ["pause", "resume"] as const) {
    route({
      method: "post",
      path: `${base}/${operation}`,
      summary: operation === "pause"
        ? "Pause an active mission's evaluations and limits"
        : "Resume a paused mission",
      operationId: `${operation}Mission`,
      request: { params: NameParamSchema },
      responses: {
        200: jsonContent(MissionAnswerSchema, "The mission"),
        ...errorResponses(400, 401, 404, 409),
      },
    }, (c) => {
      const process = findProcess(runtime, c.req.param("name") ?? "");
      const mission = requireMission(process);
      if (operation === "pause") mission.pause();
      else mission.resume();
      return c.json(answer(process));
    });
  }

  route({
    method: "patch",
    path: base,
    summary: "Change mission fields live: the next run and evaluation use them; progress is kept",
    operationId: "updateMission",
    takesBody: true,
    request: {
      params: NameParamSchema,
      body: {
        content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
        required: true,
      },
    },
    responses: {
      200: jsonContent(MissionPatchAnswerSchema, "The new mission section"),
      ...errorResponses(400, 401, 403, 404, 422),
    },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const mission = await patchSection(ctx, process, { key: "mission", body: c.get("body") });
    return c.json({ name: process.name, mission, live: true as const, effective_from: "immediate" as const });
  });
}
