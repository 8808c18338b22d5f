/**
 * Request guard: URL length, loopback Host and Origin checks, and the bearer token.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "../log.ts";
import { hostHeaderName, isLoopbackHost, isLoopbackOrigin } from "../_util/net.ts";
import { type ApiEnv, clientOf } from "./context.ts";
import { ApiError } from "./errors.ts";

/** Longest accepted request URL. */
export const MAX_URL_LENGTH = 8192;

/** The only route reachable without the token. */
export const HEALTH_PATH = "/api/v1/health";

/** Options for {@linkcode createGuard}. */
export interface GuardOptions {
  /** Bearer token; undefined means no token check. */
  token: string | undefined;
  /** Whether the bind is loopback (Host and Origin checks apply). */
  loopback: boolean;
  /** Where refusals are logged as warnings. */
  logger: Logger;
}

/**
 * Constant-time string comparison: the time depends only on the expected value's length, never on where
 * the strings differ. Compares UTF-16 code units, so equal strings are exactly the equal code-unit runs.
 */
export function safeEqual(actual: string, expected: string): boolean {
  const length = actual.length;
  let diff = length ^ expected.length;
  for (let i = 0; i < expected.length; i++) {
    diff |= (length === 0 ? 0 : actual.charCodeAt(i % length)) ^ expected.charCodeAt(i);
  }
  return diff === 0;
}

/** Methods a loopback web UI may use across origins. */
const CORS_METHODS = "GET, HEAD, POST, PATCH, PUT, DELETE";

const PREFLIGHT_HEADERS: Record<string, string> = {
  "access-control-allow-methods": CORS_METHODS,
  "access-control-allow-headers": "authorization, content-type",
  "access-control-max-age": "600",
};

function allowOrigin(response: Response, origin: string | undefined): Response {
  if (origin === undefined) return response;
  response.headers.set("access-control-allow-origin", origin);
  response.headers.append("vary", "Origin");
  return response;
}

/**
 * Middleware refusing requests that fail the checks, in order: 414, 421, 403, 401.
 *
 * On a loopback bind a web UI served from a loopback origin may call the API from a browser: preflight
 * `OPTIONS` requests are answered 204 without a token, and answers carry `Access-Control-Allow-Origin`
 * for that origin (the token is still required on the real request). A page this server serves itself (the
 * console) is same-origin: on a loopback bind its origin is a loopback one, and a non-loopback bind checks
 * no Origin, so it calls the API with the token on every bind.
 */
export function createGuard(options: GuardOptions): MiddlewareHandler<ApiEnv> {
  const expected = options.token;
  const refuse = (c: Context<ApiEnv>, error: ApiError, reason: string, corsOrigin?: string): Response => {
    options.logger.warning("request refused", {
      method: c.req.method,
      path: c.req.path,
      status: error.status,
      code: error.code,
      reason,
      client: clientOf(c.env),
    });
    return allowOrigin(error.toResponse(), corsOrigin);
  };
  // Not an async function: requests without a CORS origin return next()'s promise directly.
  return (c, next) => {
    if (c.req.url.length > MAX_URL_LENGTH) {
      const error = new ApiError("HTTP_ERROR", "The request URL is too long.", { status: 414 });
      return Promise.resolve(refuse(c, error, "url too long"));
    }
    let corsOrigin: string | undefined;
    if (options.loopback) {
      const host = c.req.header("host");
      if (host !== undefined && !isLoopbackHost(hostHeaderName(host))) {
        const error = new ApiError(
          "MISDIRECTED_REQUEST",
          "This server only answers requests addressed to a loopback host.",
        );
        return Promise.resolve(refuse(c, error, "non-loopback Host header"));
      }
      const origin = c.req.header("origin");
      if (origin !== undefined && !isLoopbackOrigin(origin)) {
        const error = new ApiError("CROSS_ORIGIN_REFUSED", "Cross-origin requests are refused.");
        return Promise.resolve(refuse(c, error, "non-loopback Origin header"));
      }
      corsOrigin = origin;
      if (
        origin !== undefined && c.req.method === "OPTIONS" && c.req.header("access-control-request-method")
      ) {
        return Promise.resolve(
          allowOrigin(new Response(null, { status: 204, headers: PREFLIGHT_HEADERS }), origin),
        );
      }
    }
    const open = (c.req.method === "GET" || c.req.method === "HEAD") && c.req.path === HEALTH_PATH;
    if (expected !== undefined && !open) {
      const header = c.req.header("authorization") ?? "";
      const match = /^Bearer\s+(.+)$/i.exec(header.trim());
      if (!match || !safeEqual(match[1], expected)) {
        const error = new ApiError("UNAUTHORIZED", "A valid bearer token is required.", {
          headers: { "www-authenticate": "Bearer" },
        });
        return Promise.resolve(refuse(c, error, match ? "wrong token" : "missing token", corsOrigin));
      }
    }
    if (corsOrigin === undefined) return next();
    const origin = corsOrigin;
    return next().then(() => {
      allowOrigin(c.res, origin);
    });
  };
}
