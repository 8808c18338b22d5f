/**
 * Context routes: `GET|PATCH /processes/{name}/context`.
 *
 * PATCH takes `{state: {key: value}}` and writes every key or none: unknown top-level fields 422
 * UNKNOWN_FIELD, `state` missing or `{}` 422 MISSING_FIELD, not an object 422 INVALID_FIELD, any key not
 * writable 403 WRITE_DENIED naming every refused key, a state larger than 256 KiB as JSON 422
 * INVALID_FIELD. A `null` value deletes its key. The write is journaled with source `api`. Both routes
 * answer `{name, state, writable_keys, all_keys_writable}`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { ContextAnswerSchema, errorResponses, jsonContent, NameParamSchema } from "../schemas.ts";
import { invalidField, missingField, refuseUnknownFields } from "./_body_fields.ts";
import { findProcess, type RouteContext } from "./route_context.ts";

const ContextPatchSchema = z.object({
  state: z.record(z.string(), z.unknown()).openapi({
    description: "Keys to write (all or none); a null value deletes its key.",
  }),
}).openapi("ContextPatch");

/** Adds the context routes. */
export function registerContextRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "get",
    path: "/api/v1/processes/{name}/context",
    summary: "Read the context state and which keys may be written",
    operationId: "getContext",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(ContextAnswerSchema, "Context"), ...errorResponses(401, 404) },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    return c.json({ name: process.name, ...process.context.view() });
  });

  route({
    method: "patch",
    path: "/api/v1/processes/{name}/context",
    summary: "Write context keys: all or none",
    operationId: "updateContext",
    takesBody: true,
    request: {
      params: NameParamSchema,
      body: { content: { "application/json": { schema: ContextPatchSchema } }, required: true },
    },
    responses: { 200: jsonContent(ContextAnswerSchema, "Written"), ...errorResponses(401, 403, 404, 422) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const body = c.get("body") ?? {};
    refuseUnknownFields(body, ["state"]);
    const { state } = body;
    const isObject = typeof state === "object" && state !== null && !Array.isArray(state);
    if (state === undefined || (isObject && Object.keys(state).length === 0)) {
      throw missingField("state", "an object with at least one key");
    }
    if (!isObject) throw invalidField("state", "an object of keys and JSON values");
    // WRITE_DENIED and INVALID_FIELD (too large) are answered by the API's onError.
    await process.context.write(state as Record<string, unknown>, "api");
    return c.json({ name: process.name, ...process.context.view() });
  });
}
