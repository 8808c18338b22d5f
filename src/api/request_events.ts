/**
 * Request events: an INFO line for every mutating request that passed the guard, and an `api_request`
 * journal entry for each successful one on the process it concerns.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import type { Logger } from "../log.ts";
import type { AgentRuntime } from "../runtime/mod.ts";
import { type ApiEnv, clientOf } from "./context.ts";
import { MUTATING_METHODS } from "./route_definer.ts";

const PROCESS_PATH = /^\/api\/v1\/processes\/([^/]+)/;
const DEPLOY_ROUTE = "/api/v1/processes";

/** Middleware writing request events; it never reads or logs bodies' contents. */
export function createRequestEvents(runtime: AgentRuntime, logger: Logger): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (!MUTATING_METHODS.has(method)) return await next();
    const pathName = PROCESS_PATH.exec(c.req.path)?.[1];
    const journalBefore = pathName ? runtime.get(safeDecode(pathName))?.journal : undefined;
    await next();
    const status = c.res.status;
    const route = c.get("route") ?? null;
    const params = c.get("params") ?? {};
    const client = clientOf(c.env);
    logger.info("request", {
      method,
      route: route ?? c.req.path,
      params,
      status,
      client,
      error_id: c.get("errorId"),
    });
    if (status >= 400 || route === null) return;
    const target = route === DEPLOY_ROUTE ? c.get("body")?.name : params.name;
    const journal = (typeof target === "string" ? runtime.get(target)?.journal : undefined) ?? journalBefore;
    await journal?.record("api_request", { method, route, params, status, client });
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
