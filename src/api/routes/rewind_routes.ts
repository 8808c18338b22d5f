/**
 * Rewind routes (spec 000, "Journal and rewind"): `GET /processes/{name}/rewind/plan` (changes nothing)
 * and `POST /processes/{name}/rewind` (`{target_entry_id, mode?, actor?}`).
 *
 * Checks, in order: 404 PROCESS_NOT_FOUND; 422 UNKNOWN_FIELD (query or body); 422 MISSING_FIELD without a
 * `target_entry_id`; 422 INVALID_FIELD for a mode not in both, conversation_only, code_only, summarize,
 * cancel (or a non-string actor); 400 JOURNAL_DISABLED without a journal; 404 ENTRY_NOT_FOUND for an id
 * that is not this process's; 409 REWIND_BUSY when a run is still in flight after the wait (10 s).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { previewRewind, REWIND_MODES, REWIND_WAIT_MS, rewindProcess } from "../../runtime/mod.ts";
import { errorResponses, jsonContent, NameParamSchema } from "../schemas.ts";
import { RewindBodySchema, RewindPlanSchema, RewindResultSchema } from "../rewind_schemas.ts";
import { invalidField, missingField, refuseUnknownFields } from "./_body_fields.ts";
import { refuseUnknownQuery } from "./_query.ts";
import { findProcess, type RouteContext } from "./route_context.ts";

const PlanQuerySchema = z.object({
  target_entry_id: z.string().openapi({ param: { name: "target_entry_id", in: "query" } }),
  mode: z.string().optional().openapi({ param: { name: "mode", in: "query" }, description: "Default both." }),
});

const MODES_TEXT = `one of ${REWIND_MODES.join(", ")}`;

/** Adds the rewind routes. */
export function registerRewindRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "get",
    path: "/api/v1/processes/{name}/rewind/plan",
    summary: "Preview a rewind to just before a journal entry; changes nothing",
    operationId: "rewindPlan",
    request: { params: NameParamSchema, query: PlanQuerySchema },
    responses: { 200: jsonContent(RewindPlanSchema, "The plan"), ...errorResponses(400, 401, 404, 422) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const query = c.req.queries();
    refuseUnknownQuery(query, ["target_entry_id", "mode"]);
    const target = query.target_entry_id?.at(-1);
    if (!target) throw missingField("target_entry_id", "a journal entry id");
    const mode = query.mode?.at(-1);
    return c.json(await previewRewind(process, target, { mode }));
  });

  route({
    method: "post",
    path: "/api/v1/processes/{name}/rewind",
    summary: "Rewind to just before a journal entry (suspends the process meanwhile)",
    operationId: "rewind",
    takesBody: true,
    request: {
      params: NameParamSchema,
      body: { content: { "application/json": { schema: RewindBodySchema } }, required: true },
    },
    responses: {
      200: jsonContent(RewindResultSchema, "Rewound (or, for cancel, the plan)"),
      ...errorResponses(400, 401, 404, 409, 422),
    },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const body = c.get("body") ?? {};
    refuseUnknownFields(body, ["target_entry_id", "mode", "actor"]);
    const { target_entry_id: target, mode, actor } = body;
    if (target === undefined || target === "") throw missingField("target_entry_id", "a journal entry id");
    if (typeof target !== "string") throw invalidField("target_entry_id", "a journal entry id (a string)");
    if (mode !== undefined && typeof mode !== "string") throw invalidField("mode", MODES_TEXT);
    if (actor !== undefined && (typeof actor !== "string" || actor === "")) {
      throw invalidField("actor", "a non-empty string");
    }
    const result = await rewindProcess(process, target, {
      mode,
      actor: actor ?? "api",
      waitMs: REWIND_WAIT_MS,
    });
    return c.json(result);
  });
}
