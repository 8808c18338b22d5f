/**
 * Serving a {@linkcode ToolServer} over HTTP as a fetch handler, for `Deno.serve` or any server that
 * speaks `Request`/`Response`.
 *
 * | Method | Path | Purpose |
 * |---|---|---|
 * | GET, POST, DELETE | `/mcp` (the `path` option) | streamable HTTP (`transport: "http"`): 2025-era sessions and 2026-07-28 requests |
 * | GET / POST | `/sse` / `/messages/?session_id=` | legacy SSE transport (`transport: "sse"`) |
 * | GET | `/health` | liveness, always 200 |
 * | GET | `/health/ready` | readiness: 200, or 503 when a required check fails; never error texts |
 * | POST | `/auth/token` | the optional development token endpoint |
 *
 * Layers, outermost first: CORS (preflights answered here, so without credentials), then for the MCP
 * routes only the Host/Origin check (421 / 403) and the auth gate (401), then the transport; on `/mcp`
 * a request carrying the 2026-07-28 `_meta` envelope goes to the stateless modern leg, anything else
 * (`initialize`, session requests) to the 2025-era sessions. Health and
 * token routes skip the Host/Origin check and the gate. Sessions live in this handler's memory: a
 * session id minted by another handler or process gets 404, and the client re-initialises. Sessions are
 * capped per client (429) and in total (503); only sessions whose client sent `notifications/initialized`
 * count against the total, and sessions never initialised close after `sessionInitTimeout`.
 *
 * The handler does not run the server's startup or shutdown hooks; `run()` and `serveStdio()` do.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import type { ToolServer } from "../tool_server.ts";
import { authGate } from "./_auth_gate.ts";
import { clientKey } from "./_client_key.ts";
import { HostPolicy } from "./_host_policy.ts";
import { json, pathOf } from "./_http.ts";
import type { LiveSession, McpRoute } from "./_mcp_route.ts";
import { SessionTable } from "./_session_table.ts";
import { sseRoute } from "./_sse_route.ts";
import { streamableRoute } from "./_streamable_route.ts";
import { type CorsOptions, CorsPolicy } from "./cors_policy.ts";
import { HealthCheck } from "./health_check.ts";
import { tokenEndpoint, type TokenEndpointOptions } from "./token_endpoint.ts";
import { createModernHandler, type ModernHandler } from "../modern/modern_handler.ts";
import { eraRoute } from "./_era_route.ts";

/** Options for {@linkcode toFetchHandler}. */
export interface FetchHandlerOptions {
  /** Transport to serve (`"stdio"` cannot be served over HTTP). @default "http" */
  transport?: "http" | "sse";
  /** Host names accepted besides loopback: `name` (any port) or `name:port`. @default [] */
  allowedHosts?: string[];
  /** Origins accepted besides http(s) origins of allowed hosts (CORS `allowOrigins` are added). @default [] */
  allowedOrigins?: string[];
  /** CORS settings; no CORS headers without them. */
  cors?: CorsOptions;
  /** Streamable HTTP without sessions: no elicitation, sampling or per-session state. @default false */
  stateless?: boolean;
  /** Checks behind `GET /health/ready`. @default no checks (always ready) */
  health?: HealthCheck;
  /** Serve the development token endpoint. */
  tokenEndpoint?: TokenEndpointOptions;
  /** Path of the streamable HTTP endpoint. @default "/mcp" */
  path?: string;
  /**
   * Most initialised sessions at once (the client sent `notifications/initialized`); an `initialize`
   * beyond it gets 503. As many more may wait for initialisation: when that pool is full, the oldest
   * waiting session is closed to make room, so sessions never initialised cannot lock others out.
   * @default 10000
   */
  maxSessions?: number;
  /**
   * Most sessions one client holds at once, waiting or initialised; one more gets 429 with a
   * Retry-After of `sessionInitTimeout`. A client is the auth gate's principal (one per credential)
   * or, without a gate, the peer address from `info.remoteAddr` (IPv6 grouped by /64). Without either
   * there is no per-client cap. Behind a reverse proxy every client has the proxy's address: pass the
   * client's address as `info.remoteAddr`, or raise this cap.
   * @default 100
   */
  maxSessionsPerClient?: number;
  /** Seconds a new session may wait for `notifications/initialized` before it is closed. @default 30 */
  sessionInitTimeout?: number;
  /** Seconds without requests after which an initialised session is closed. @default 3600 */
  sessionIdleTimeout?: number;
  /** Answer streamable HTTP POSTs with JSON instead of an SSE stream. @default false */
  enableJsonResponse?: boolean;
}

/** Connection facts from the HTTP server (`Deno.serve` passes a compatible object). */
export interface ServeInfo {
  /** The peer's address. */
  remoteAddr?: { hostname: string };
}

/** A fetch handler serving a tool server, with its sessions. */
export interface McpFetchHandler {
  /** Answers one request. */
  (request: Request, info?: ServeInfo): Promise<Response>;
  /** Closes every session and refuses new ones (runs no shutdown hooks). */
  close(): Promise<void>;
  /** Open sessions, initialised or waiting for initialisation. */
  readonly sessionCount: number;
}

/** Option names {@linkcode toFetchHandler} accepts (a new option not listed fails `deno check`). */
export const FETCH_HANDLER_KEYS: Record<keyof FetchHandlerOptions, true> = {
  transport: true,
  allowedHosts: true,
  allowedOrigins: true,
  cors: true,
  stateless: true,
  health: true,
  tokenEndpoint: true,
  path: true,
  maxSessions: true,
  maxSessionsPerClient: true,
  sessionInitTimeout: true,
  sessionIdleTimeout: true,
  enableJsonResponse: true,
};
const NOT_FOUND = { error: "not found", message: "No such endpoint" };

function checkOptions(options: FetchHandlerOptions): void {
  checkOptionKeys(options, { owner: "toFetchHandler", keys: FETCH_HANDLER_KEYS });
  const transport = options.transport ?? "http";
  if ((transport as string) === "stdio") throw new TypeError("stdio cannot be served over HTTP");
  if (transport !== "http" && transport !== "sse") {
    throw new TypeError(`toFetchHandler: transport must be "http" or "sse"`);
  }
  if (options.stateless && transport !== "http") {
    throw new TypeError("toFetchHandler: stateless applies to the http transport only");
  }
  const path = options.path ?? "/mcp";
  if (typeof path !== "string" || !/^\/[^?#\s]*$/.test(path) || ["/health", "/sse"].includes(path)) {
    throw new TypeError("toFetchHandler: path must start with '/' and not collide with other routes");
  }
  const max = options.maxSessions ?? 10_000;
  if (!Number.isInteger(max) || max < 1) {
    throw new TypeError("toFetchHandler: maxSessions must be an integer >= 1");
  }
  const perClient = options.maxSessionsPerClient ?? 100;
  if (!Number.isInteger(perClient) || perClient < 1) {
    throw new TypeError("toFetchHandler: maxSessionsPerClient must be an integer >= 1");
  }
  for (const name of ["sessionIdleTimeout", "sessionInitTimeout"] as const) {
    const seconds = options[name] ?? 1;
    if (typeof seconds !== "number" || !(seconds > 0)) {
      throw new TypeError(`toFetchHandler: ${name} must be a positive number of seconds`);
    }
  }
  if (options.health !== undefined && !(options.health instanceof HealthCheck)) {
    throw new TypeError("toFetchHandler: health must be a HealthCheck");
  }
}

async function healthRoute(health: HealthCheck, request: Request, path: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return json(405, { error: "method not allowed" }, { allow: "GET, HEAD" });
  }
  const noStore = { "cache-control": "no-store" };
  if (path === "/health") return json(200, health.liveness(), noStore);
  const readiness = await health.readiness({ includeErrors: false });
  return json(readiness.status === "ready" ? 200 : 503, readiness, noStore);
}

/**
 * A fetch handler for `server`. Throws a TypeError for bad options (and `transport: "stdio"`), and runs
 * `server.assertReady()`. It does not run startup or shutdown hooks: `run()` does, or call
 * `server.startup()` / `server.shutdown()` yourself around your own `Deno.serve`.
 *
 * @example
 * ```ts ignore
 * import { createToolServer, toFetchHandler } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "maths" });
 * const handler = toFetchHandler(server, { allowedHosts: ["mcp.example.com"] });
 * Deno.serve({ hostname: "127.0.0.1", port: 8080 }, handler);
 * ```
 */
export function toFetchHandler(server: ToolServer, options: FetchHandlerOptions = {}): McpFetchHandler {
  checkOptions(options);
  server.assertReady();
  const cors = options.cors === undefined ? undefined : new CorsPolicy(options.cors);
  const hosts = new HostPolicy(options.allowedHosts ?? [], [
    ...(options.allowedOrigins ?? []),
    ...cors?.origins ?? [],
  ]);
  const health = options.health ?? new HealthCheck();
  const token = options.tokenEndpoint === undefined ? undefined : tokenEndpoint(options.tokenEndpoint);
  const logger = server.logger;
  const initTimeout = options.sessionInitTimeout ?? 30;
  const sessions = new SessionTable<LiveSession>({
    maxSessions: options.maxSessions ?? 10_000,
    maxSessionsPerClient: options.maxSessionsPerClient ?? 100,
    idleTimeoutMs: (options.sessionIdleTimeout ?? 3600) * 1000,
    initTimeoutMs: initTimeout * 1000,
    logger,
  });
  const clientRetryAfter = Math.min(Math.max(1, Math.ceil(initTimeout)), 3600);
  let modern: ModernHandler | undefined;
  let mcp: McpRoute;
  if (options.transport === "sse") {
    mcp = sseRoute(server, { sessions, clientRetryAfter });
  } else {
    const enableJsonResponse = options.enableJsonResponse ?? false;
    modern = createModernHandler(server, { enableJsonResponse });
    mcp = eraRoute(
      streamableRoute(server, {
        sessions,
        clientRetryAfter,
        path: options.path ?? "/mcp",
        stateless: options.stateless ?? false,
        enableJsonResponse,
      }),
      modern,
    );
  }

  async function route(request: Request, info: ServeInfo | undefined): Promise<Response> {
    const path = pathOf(request.url);
    if (path === "/health" || path === "/health/ready") return await healthRoute(health, request, path);
    if (token && path === token.path) return await token(request);
    if (!mcp.handles(path)) return json(404, NOT_FOUND);
    const refused = hosts.check(request);
    if (refused) return refused;
    const gate = await authGate(server, request);
    if (!gate.ok) return gate.response;
    const ipAddress = info?.remoteAddr?.hostname;
    const client = clientKey(gate.principal, ipAddress);
    return await mcp.handle(request, { principal: gate.principal, ipAddress, client });
  }

  async function handler(request: Request, info?: ServeInfo): Promise<Response> {
    const preflight = cors?.preflight(request);
    if (preflight) return preflight;
    let response: Response;
    try {
      response = await route(request, info);
    } catch (error) {
      logger.error("MCP HTTP request failed", { error: describeError(error) });
      response = json(500, { error: "internal error", message: "The request could not be handled" });
    }
    return cors ? cors.apply(request, response) : response;
  }

  return Object.defineProperties(handler, {
    close: { value: () => Promise.all([sessions.closeAll(), modern?.close()]).then(() => undefined) },
    sessionCount: { get: () => sessions.size },
  }) as McpFetchHandler;
}
