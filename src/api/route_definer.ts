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
    app.openAPIRegistry.registerPath(description);
    const method = route.method.toUpperCase();
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
