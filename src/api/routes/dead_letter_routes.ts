/**
 * Dead-letter routes: `GET|DELETE /processes/{name}/dead-letters`, `POST
 * /processes/{name}/dead-letters/redeliver`. Letters are events the process gave up on (retries
 * exhausted, stopped, interrupted by a crash, ...), kept across restarts for inspection and redelivery.
 *
 * Checks, in order: 404 PROCESS_NOT_FOUND; for redeliver, undeclared body fields 422 UNKNOWN_FIELD,
 * `event_ids` not an array of strings 422 INVALID_TYPE, a process not started (created, stopped,
 * failed) 409 PROCESS_NOT_RUNNING (its letters stay). Payloads are shown as accepted (secret values
 * redacted).
 *
 * @module
 */

import { redactStrings } from "../../_util/redact_strings.ts";
import { STARTED_STATES } from "../../runtime/mod.ts";
import { ApiError } from "../errors.ts";
import { errorResponses, jsonContent, NameParamSchema } from "../schemas.ts";
import {
  DeadLettersClearedSchema,
  DeadLettersSchema,
  RedeliverBodySchema,
  RedeliveredSchema,
} from "../dead_letter_schemas.ts";
import { refuseUnknownFields } from "./_body_fields.ts";
import { findProcess, type RouteContext } from "./route_context.ts";

const BASE = "/api/v1/processes/{name}/dead-letters";

/** Adds the dead-letter routes. */
export function registerDeadLetterRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "get",
    path: BASE,
    summary: "List the dead letters, oldest first (secret values redacted)",
    operationId: "listDeadLetters",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(DeadLettersSchema, "Dead letters"), ...errorResponses(401, 404) },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const letters = process.deadLetters;
    const list = redactStrings(letters.list(), (text) => process.secrets.redact(text));
    return c.json({ name: process.name, dead_letters: list, count: list.length, total: letters.total });
  });

  route({
    method: "post",
    path: `${BASE}/redeliver`,
    summary: "Queue dead letters again (all, or event_ids); a started process only",
    description: "Each event is accepted again (written to the events log before the answer) and queued; " +
      "ids with no letter are skipped. A full process queue dead-letters the event again (queue full).",
    operationId: "redeliverDeadLetters",
    takesBody: true,
    request: {
      params: NameParamSchema,
      body: { content: { "application/json": { schema: RedeliverBodySchema } }, required: false },
    },
    responses: {
      200: jsonContent(RedeliveredSchema, "Redelivered"),
      ...errorResponses(401, 404, 409, 422),
    },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const body = c.get("body") ?? {};
    refuseUnknownFields(body, ["event_ids"]);
    const ids = body.event_ids;
    if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === "string"))) {
      throw new ApiError("INVALID_TYPE", "`event_ids` must be an array of strings.", {
        details: [{ field: "event_ids", expected: "an array of strings" }],
      });
    }
    if (!STARTED_STATES.has(process.state)) {
      throw new ApiError("PROCESS_NOT_RUNNING", `The process is ${process.state}; start it to redeliver.`, {
        details: [{ field: "state", expected: "running, suspended or awaiting" }],
      });
    }
    const redelivered = await process.deadLetters.redeliver(ids as string[] | undefined);
    return c.json({ name: process.name, redelivered });
  });

  route({
    method: "delete",
    path: BASE,
    summary: "Remove every dead letter (from the events log too)",
    operationId: "clearDeadLetters",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(DeadLettersClearedSchema, "Cleared"), ...errorResponses(401, 404) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const dead_letters_cleared = await process.deadLetters.clear();
    return c.json({ name: process.name, dead_letters_cleared });
  });
}
