/**
 * Run routes (ours, beyond spec 000): `GET /processes/{name}/runs` (recent runs, newest first),
 * `GET /processes/{name}/runs/{run_id}` (one run with its steps), `GET /processes/{name}/runs/events`
 * (a server-sent event stream of run progress), and `PATCH /processes/{name}/instructions`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { RunProgress } from "../../runtime/mod.ts";
import { STARTED_STATES } from "../../runtime/mod.ts";
import { ApiError } from "../errors.ts";
import { errorResponses, jsonContent, NameParamSchema } from "../schemas.ts";
import { InstructionsAnswerSchema, RunDetailSchema, RunListSchema, RunParamsSchema } from "../run_schemas.ts";
import { findProcess, type RouteContext } from "./route_context.ts";
import { queryLimit, refuseUnknownQuery } from "./_query.ts";

/** Seconds between keep-alive comments on the run stream. */
export const RUN_STREAM_KEEPALIVE_SECONDS = 15;

const LimitQuerySchema = z.object({
  limit: z.string().optional().openapi({
    param: { name: "limit", in: "query" },
    description: "1 to 100, default 20: the newest runs first.",
  }),
});

/** Adds the run routes and the instructions patch. */
export function registerRunRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "get",
    path: "/api/v1/processes/{name}/runs",
    summary: "Recent runs, newest first (status, trigger, timings, usage, final reply)",
    operationId: "listRuns",
    request: { params: NameParamSchema, query: LimitQuerySchema },
    responses: { 200: jsonContent(RunListSchema, "Runs"), ...errorResponses(401, 404, 422) },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const query = c.req.queries();
    refuseUnknownQuery(query, ["limit"]);
    const runs = process.runLog.list(queryLimit(query.limit, { max: 100, fallback: 20 }));
    return c.json({ name: process.name, runs, count: runs.length });
  });

  route({
    method: "get",
    path: "/api/v1/processes/{name}/runs/events",
    summary: "A server-sent event stream of run progress: run_started, text, step, run_ended",
    operationId: "streamRuns",
    request: { params: NameParamSchema },
    responses: {
      200: { description: "text/event-stream", content: { "text/event-stream": { schema: z.string() } } },
      ...errorResponses(401, 404),
    },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    return progressStream(process.runLog.subscribe.bind(process.runLog), c.req.raw.signal);
  });

  route({
    method: "get",
    path: "/api/v1/processes/{name}/runs/{run_id}",
    summary: "One run with its steps",
    operationId: "getRun",
    request: { params: RunParamsSchema },
    responses: { 200: jsonContent(RunDetailSchema, "Run"), ...errorResponses(401, 404) },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const runId = c.req.param("run_id") ?? "";
    const run = process.runLog.get(runId);
    if (!run) throw new ApiError("NOT_FOUND", `No run ${JSON.stringify(runId.slice(0, 64))} is kept.`);
    return c.json(run);
  });

  route({
    method: "patch",
    path: "/api/v1/processes/{name}/instructions",
    summary: "Replace the instructions: the next run uses them; servers, conversation and context are kept",
    operationId: "updateInstructions",
    takesBody: true,
    request: {
      params: NameParamSchema,
      body: {
        content: { "application/json": { schema: z.object({ instructions: z.string().min(1) }) } },
        required: true,
      },
    },
    responses: { 200: jsonContent(InstructionsAnswerSchema, "Replaced"), ...errorResponses(401, 404) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const body = c.get("body") ?? {};
    const unknown = Object.keys(body).filter((key) => key !== "instructions");
    if (unknown.length > 0) {
      throw new ApiError("UNKNOWN_FIELD", `Unknown field(s): ${unknown.join(", ")}.`, {
        details: unknown.map((field) => ({ field, expected: "no such field; allowed: instructions" })),
      });
    }
    const instructions = body.instructions;
    if (instructions === undefined) {
      throw new ApiError("MISSING_FIELD", "`instructions` is required.", {
        details: [{ field: "instructions", expected: "a non-empty string" }],
      });
    }
    if (typeof instructions !== "string" || instructions.trim() === "") {
      throw new ApiError("INVALID_FIELD", "`instructions` must be a non-empty string.", {
        details: [{ field: "instructions", expected: "a non-empty string" }],
      });
    }
    await runtime.setInstructions(process.name, instructions);
    return c.json({
      name: process.name,
      instructions_updated: true as const,
      live: true as const,
      effective_from: STARTED_STATES.has(process.state) ? "next_invocation" as const : "next_start" as const,
    });
  });
}

/** An event-stream answer fed by `subscribe` until the client goes away. */
function progressStream(
  subscribe: (listener: (progress: RunProgress) => void) => () => void,
  signal: AbortSignal,
): Response {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const unsubscribe = subscribe((progress) => {
        send(`event: ${progress.type}\ndata: ${JSON.stringify(progress)}\n\n`);
      });
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), RUN_STREAM_KEEPALIVE_SECONDS * 1000);
      cleanup = () => {
        unsubscribe();
        clearInterval(keepAlive);
        signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      signal.addEventListener("abort", onAbort);
      send(": connected\n\n");
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}
