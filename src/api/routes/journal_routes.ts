/**
 * `GET /api/v1/processes/{name}/journal`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { ApiError } from "../errors.ts";
import { errorResponses, JournalAnswerSchema, jsonContent, NameParamSchema } from "../schemas.ts";
import { findProcess, type RouteContext } from "./route_context.ts";

/** Default and largest `limit`. */
export const JOURNAL_LIMIT = { default: 50, max: 500 } as const;

const QUERY_FIELDS = new Set(["limit", "type"]);

const JournalQuerySchema = z.object({
  limit: z.string().optional().openapi({
    param: { name: "limit", in: "query" },
    description: "1 to 500, default 50: the newest entries, answered oldest first.",
  }),
  type: z.string().optional().openapi({
    param: { name: "type", in: "query" },
    description: "Entry type filter.",
  }),
});

/** Adds the journal route. */
export function registerJournalRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "get",
    path: "/api/v1/processes/{name}/journal",
    summary: "Read the newest journal entries, oldest first",
    operationId: "getJournal",
    request: { params: NameParamSchema, query: JournalQuerySchema },
    responses: { 200: jsonContent(JournalAnswerSchema, "Entries"), ...errorResponses(401, 404, 422) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const query = c.req.queries();
    const unknown = Object.keys(query).filter((key) => !QUERY_FIELDS.has(key));
    if (unknown.length > 0) {
      throw new ApiError("UNKNOWN_FIELD", `Unknown query parameter(s): ${unknown.join(", ")}.`, {
        details: unknown.map((field) => ({ field, expected: "no such parameter; allowed: limit, type" })),
      });
    }
    const limit = parseLimit(query.limit);
    const type = query.type?.at(-1);
    const journal = process.journal;
    if (!journal) return c.json({ name: process.name, entries: [], journal_enabled: false });
    const entries = (await journal.read({ limit, type: type || undefined })).map((entry) => ({
      entry_id: entry.entry_id,
      entry_type: entry.entry_type,
      timestamp: entry.timestamp,
      data: entry.data,
    }));
    return c.json({ name: process.name, entries, count: entries.length, journal_enabled: true });
  });
}

function parseLimit(values: string[] | undefined): number {
  if (values === undefined) return JOURNAL_LIMIT.default;
  const text = values.at(-1) ?? "";
  const value = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= JOURNAL_LIMIT.max)) {
    throw new ApiError("INVALID_FIELD", `\`limit\` must be an integer from 1 to ${JOURNAL_LIMIT.max}.`, {
      details: [{ field: "limit", expected: `an integer from 1 to ${JOURNAL_LIMIT.max}` }],
    });
  }
  return value;
}
