/**
 * `createControlApi(runtime, options)`: the control API as a Hono app (a `fetch` handler), so tests and
 * embedders can call it without a socket.
 *
 * @module
 */

import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { describeError } from "../_util/errors.ts";
import { type AgentRuntime, type DeployPolicy, RuntimeError } from "../runtime/mod.ts";
import { VERSION } from "../version.ts";
import type { ApiEnv, ControlApi } from "./context.ts";
import { ApiError } from "./errors.ts";
import { fromRuntime, runtimeFailure } from "./failures.ts";
import { createGuard } from "./guard.ts";
import { apiEnvLookup, type ControlApiOptions, resolveControlApiOptions } from "./options.ts";
import { createRequestEvents } from "./request_events.ts";
import { routeDefiner } from "./route_definer.ts";
import { registerContextRoutes } from "./routes/context_routes.ts";
import { registerDeployRoute } from "./routes/deploy_route.ts";
import { registerInboxRoutes } from "./routes/inbox_routes.ts"; // inbox (issue 12)
import { registerJournalRoutes } from "./routes/journal_routes.ts";
import { registerRewindRoutes } from "./routes/rewind_routes.ts"; // rewind (issue 13)
import { registerProcessRoutes } from "./routes/process_routes.ts";
import type { RouteContext } from "./routes/route_context.ts";
import { registerRunRoutes } from "./routes/run_routes.ts";
import { registerRuntimeRoutes } from "./routes/runtime_routes.ts";
import { registerSecretRoutes } from "./routes/secret_routes.ts";
import { registerHealthRoutes } from "./routes/health_routes.ts";
import { registerTriggerRoutes } from "./routes/trigger_routes.ts";
import { registerOpenModeRoutes } from "./routes/open_mode_routes.ts";
import { registerLivePatchRoutes } from "./routes/live_patch_routes.ts"; // live patches (issue 13)
import { registerMissionRoutes } from "./routes/mission_routes.ts"; // mission (issue 13)
import { registerDeadLetterRoutes } from "./routes/dead_letter_routes.ts"; // dead letters (event ledger)
import { registerEventRoutes } from "./routes/event_routes.ts"; // runtime events (issue 20)

/** Path of the generated OpenAPI 3.1 document. */
export const OPENAPI_PATH = "/api/v1/openapi.json";

/**
 * Builds the control API for a runtime. Throws `RangeError` / `TypeError` for invalid settings.
 *
 * @example
 * ```ts
 * import { AgentRuntime, createControlApi } from "@agentry/agentry";
 * const api = createControlApi(new AgentRuntime(), { authToken: "s3cret-token" });
 * const answer = await api.request("/api/v1/health");
 * console.log(await answer.json()); // { status: "healthy", process_count: 0 }
 * ```
 */
export function createControlApi(runtime: AgentRuntime, options: ControlApiOptions = {}): ControlApi {
  const resolved = resolveControlApiOptions(options);
  const logger = (resolved.logger ?? runtime.logger).child("api");
  const app = new OpenAPIHono<ApiEnv>({ strict: true });
  const policy: DeployPolicy = {
    allowCommandDeploys: resolved.allowCommandDeploys,
    allowEnvReferences: resolved.allowEnvReferences,
    allowedEnvVars: resolved.allowedEnvVars,
    dataDir: resolved.dataDir ?? runtime.dataDir,
    cwd: Deno.cwd(),
  };
  const apiEnv = apiEnvLookup(resolved);
  const ctx: RouteContext = {
    app,
    route: routeDefiner(app),
    runtime,
    options: resolved,
    logger,
    policy,
    apiEnv,
  };

  const front = options.front;
  if (front) app.use("*", (c, next) => Promise.resolve(front(c.req.raw) ?? next()));
  app.use("*", createGuard({ token: resolved.authToken, loopback: resolved.loopback, logger }));
  // Middleware, not `app.on(methods, "*")`: a "*" route would make every path accept those methods.
  app.use("*", createRequestEvents(runtime, logger));
  app.use("*", methodNotAllowed({ app, onMethodNotAllowed: (_c, allowed) => notAllowed(allowed) }));
  registerRuntimeRoutes(ctx);
  registerProcessRoutes(ctx);
  registerDeployRoute(ctx);
  registerJournalRoutes(ctx);
  registerTriggerRoutes(ctx);
  registerRunRoutes(ctx);
  registerContextRoutes(ctx);
  registerSecretRoutes(ctx);
  registerOpenModeRoutes(ctx); // open mode (issue 12)
  registerInboxRoutes(ctx); // inbox (issue 12)
  registerRewindRoutes(ctx); // rewind (issue 13)
  registerHealthRoutes(ctx); // health (issue 13)
  registerLivePatchRoutes(ctx); // live patches (issue 13)
  registerMissionRoutes(ctx); // mission (issue 13)
  registerDeadLetterRoutes(ctx); // dead letters (event ledger)
  registerEventRoutes(ctx); // runtime events (issue 20)
  registerOpenApiRoute(ctx);

  app.notFound(() => new ApiError("NOT_FOUND", "No such route.").toResponse());
  app.onError((error, c) => {
    let answer: ApiError;
    if (error instanceof ApiError) answer = error;
    else if (error instanceof HTTPException) {
      answer = new ApiError("HTTP_ERROR", error.message || "HTTP error.", { status: error.status });
    } else if (error instanceof RuntimeError) answer = fromRuntime(error, { logger });
    else {
      answer = runtimeFailure("INTERNAL_ERROR", {
        cause: error,
        logger,
        fields: { method: c.req.method, path: c.req.path },
      });
    }
    if (answer.errorId) c.set("errorId", answer.errorId);
    return answer.toResponse();
  });
  return app;
}

/** 405 for a path whose routes take other methods (HEAD wherever GET is), in registration order. */
function notAllowed(allowed: string[]): Response {
  return new ApiError("METHOD_NOT_ALLOWED", `This route accepts ${allowed.join(", ")}.`, {
    headers: { allow: allowed.join(", ") },
  }).toResponse();
}

function registerOpenApiRoute(ctx: RouteContext): void {
  const { app, route } = ctx;
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer" });
  let document: unknown;
  route({
    method: "get",
    path: OPENAPI_PATH,
    summary: "This API's OpenAPI 3.1 document",
    operationId: "openApiDocument",
    responses: { 200: { description: "The document", content: { "application/json": { schema: {} } } } },
  }, (c) => {
    try {
      document ??= app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: { title: "Agentry control API", version: VERSION },
        security: [{ bearerAuth: [] }],
      });
    } catch (error) {
      throw new Error(`the OpenAPI document could not be generated: ${describeError(error)}`);
    }
    return c.json(document);
  });
}
