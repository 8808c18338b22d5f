/**
 * `GET /api/v1/processes/{name}/journal`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { errorResponses, JournalAnswerSchema, jsonContent, NameParamSchema } from "../schemas.ts";
import { findProcess, type RouteContext } from "./route_context.ts";
import { queryLimit, refuseUnknownQuery } from "./_query.ts";

/** Default and largest `limit`. */
export const JOURNAL_LIMIT = { default: 50, max: 500 } as const;

const QUERY_FIELDS = ["limit", "type"];

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
    refuseUnknownQuery(query, QUERY_FIELDS);
    const limit = queryLimit(query.limit, { max: JOURNAL_LIMIT.max, fallback: JOURNAL_LIMIT.default });
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
