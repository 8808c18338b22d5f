/**
 * The Hono environment shared by the control API's middleware and routes.
 *
 * @module
 */

import type { OpenAPIHono } from "@hono/zod-openapi";

/** Per-request values set by the API's middleware. */
export interface ApiVariables {
  /** The parsed JSON body of a mutating request (`undefined` when empty). */
  body: Record<string, unknown> | undefined;
  /** The matched route in OpenAPI form, e.g. `/api/v1/processes/{name}`. */
  route: string;
  /** Path parameters of the matched route. */
  params: Record<string, string>;
  /** Error id of an error answer, for the request log line. */
  errorId: string;
}

/** Values passed to `app.fetch(request, env)`. */
export interface ApiBindings {
  /** Client address, when served from a socket. */
  remoteAddr?: string;
}

/** The Hono environment of the control API. */
export type ApiEnv = { Bindings: ApiBindings; Variables: ApiVariables };

/** The control API app type (internal: routes are added to it). */
export type ControlApiApp = OpenAPIHono<ApiEnv>;

/** The control API as a fetch handler. */
export interface ControlApi {
  /** Answers one request; `env.remoteAddr` is the client address used in logs. */
  fetch(request: Request, env?: ApiBindings): Response | Promise<Response>;
  /** Answers a request built from a path or URL and init (handy in tests). */
  request(input: string | URL | Request, init?: RequestInit, env?: ApiBindings): Response | Promise<Response>;
}

/** The client address of a request, or `unknown`. */
export function clientOf(env: ApiBindings | undefined): string {
  return env?.remoteAddr ?? "unknown";
}
