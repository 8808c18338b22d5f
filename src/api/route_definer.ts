/**
 * Route definitions: each route is registered once and serves three purposes — routing, the OpenAPI
 * document, and (through hono's `methodNotAllowed`, which reads the app's routes) 405 answers listing
 * the methods a path accepts.
 *
 * @module
 */

import type { RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ApiEnv, ControlApiApp } from "./context.ts";
import { readJsonObject } from "./body.ts";
import { ApiError } from "./errors.ts";
import { errorResponses } from "./schemas.ts";

/** Methods whose requests may carry a body (and are logged and journaled as mutating). */
export const MUTATING_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A route handler. */
export type RouteHandler = (c: Context<ApiEnv>) => Response | Promise<Response>;

/** A route: its OpenAPI description plus whether it reads a JSON body. */
export type RouteDefinition = RouteConfig & {
  /** Whether the route reads a body; routes that do not accept only an empty body or `{}`. */
  takesBody?: boolean;
};

/** Adds a route: `(route, handler)`, see {@linkcode routeDefiner}. */
export type DefineRoute = (route: RouteDefinition, handler: RouteHandler) => void;

/** A function registering each route on `app`, for routing and the OpenAPI document. */
export function routeDefiner(app: ControlApiApp): DefineRoute {
  return (route, handler) => {
    const { takesBody = false, ...description } = route;
    const method = route.method.toUpperCase();
    const shared = errorResponses(...sharedErrors(method, route.security?.length !== 0));
    app.openAPIRegistry.registerPath({ ...description, responses: { ...shared, ...route.responses } });
    const honoPath = route.path.replace(/\{(\w+)\}/g, ":$1");
    if (!MUTATING_METHODS.has(method)) {
      app.on(method, honoPath, handler);
      return;
    }
    app.on(method, honoPath, async (c) => {
      c.set("route", route.path);
      c.set("params", c.req.param() as Record<string, string>);
      const body = await readJsonObject(c.req.raw);
      if (!takesBody && body && Object.keys(body).length > 0) {
        throw new ApiError("UNKNOWN_FIELD", "This route takes no request body.", {
          details: Object.keys(body).map((field) => ({ field, expected: "no such field" })),
        });
      }
      c.set("body", body);
      return await handler(c);
    });
  };
}

/**
 * Error statuses every route may answer besides its own: the guard's (403 cross-origin, 414 URL too
 * long, 421 wrong Host, 401 without the token where one is needed), 500 for an unexpected exception,
 * and for mutating routes the body's (400 unreadable or not a JSON object, 408 too slow, 413 too large,
 * 422 fields a route without a body does not take).
 */
function sharedErrors(method: string, needsToken: boolean): number[] {
  const statuses = [403, 414, 421, 500];
  if (needsToken) statuses.push(401);
  if (MUTATING_METHODS.has(method)) statuses.push(400, 408, 413, 422);
  return statuses;
}
