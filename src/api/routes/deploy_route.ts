/**
 * `POST /api/v1/processes`: the deploy pipeline. Checks run in this order and the first failure answers:
 * body fields (422 UNKNOWN_FIELD / MISSING_FIELD / INVALID_NAME / INVALID_FIELD), a taken name (409),
 * `${VAR}` references (403), the config schema (422 INVALID_CONFIG), program-running parts (403), paths
 * (403), building the process (422 DEPLOY_FAILED), then the optional start (500 START_FAILED, the
 * process stays registered).
 *
 * @module
 */

import { checkCommands, checkEnvReferences, checkPaths, parseProcessConfig } from "../../runtime/mod.ts";
import { ApiError } from "../errors.ts";
import { processExists } from "../failures.ts";
import {
  DeployAnswerSchema,
  DeployBodySchema,
  errorResponses,
  jsonContent,
  NAME_PATTERN,
} from "../schemas.ts";
import { refusePolicy, type RouteContext } from "./route_context.ts";

const BODY_FIELDS = new Set(["name", "config", "start"]);

/** Adds `POST /api/v1/processes`. */
export function registerDeployRoute(ctx: RouteContext): void {
  const { route, runtime, policy, logger } = ctx;
  route({
    method: "post",
    path: "/api/v1/processes",
    summary: "Deploy a process",
    operationId: "deployProcess",
    takesBody: true,
    request: { body: { content: { "application/json": { schema: DeployBodySchema } }, required: true } },
    responses: {
      201: jsonContent(DeployAnswerSchema, "Deployed"),
      ...errorResponses(400, 401, 403, 409, 422, 500),
    },
  }, async (c) => {
    const body = c.get("body") ?? {};
    const unknown = Object.keys(body).filter((key) => !BODY_FIELDS.has(key));
    if (unknown.length > 0) {
      throw new ApiError("UNKNOWN_FIELD", `Unknown field(s) in the deploy body: ${unknown.join(", ")}.`, {
        details: unknown.map((field) => ({ field, expected: "no such field; allowed: name, config, start" })),
      });
    }
    const { name, config: rawConfig, start = false } = body;
    if (name === undefined) throw missing("name");
    if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
      throw new ApiError(
        "INVALID_NAME",
        "The process name must start with a letter and hold 1 to 64 letters, digits, '_' or '-'.",
        { details: [{ field: "name", expected: "a string matching ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$" }] },
      );
    }
    if (typeof start !== "boolean") {
      throw new ApiError("INVALID_FIELD", "`start` must be a boolean.", {
        details: [{ field: "start", expected: "a boolean" }],
      });
    }
    if (rawConfig === undefined) throw missing("config");
    if (runtime.get(name)) throw processExists(name);
    refusePolicy(checkEnvReferences(body, ctx.policy), { logger, process: name });
    const parsed = parseProcessConfig(rawConfig);
    const issues = parsed.ok ? runtime.checkConfig(parsed.config) : parsed.issues;
    if (!parsed.ok || issues.length > 0) {
      const details = issues.map((issue) => ({
        field: issue.field === "(config)" ? "config" : `config.${issue.field}`,
        expected: issue.expected,
      }));
      throw new ApiError(
        "INVALID_CONFIG",
        `The config is not valid: ${details.map((d) => d.field).join(", ")}.`,
        {
          details,
        },
      );
    }
    refusePolicy(checkCommands(parsed.config, policy, { prefix: "config" }), { logger, process: name });
    refusePolicy(await checkPaths(parsed.config, policy, { prefix: "config" }), { logger, process: name });
    // A taken name (a concurrent deploy), DEPLOY_FAILED and START_FAILED are answered by the API's onError.
    const process = await runtime.deploy(name, parsed.config, {
      source: "api",
      env: ctx.apiEnv,
      persistConfig: rawConfig as Record<string, unknown>,
      start,
    });
    return c.json({
      name: process.name,
      process_id: process.processId,
      state: process.state,
      created_at: process.createdAt,
    }, 201);
  });
}

function missing(field: string): ApiError {
  return new ApiError("MISSING_FIELD", `The deploy body needs \`${field}\`.`, {
    details: [{ field, expected: field === "name" ? "a process name" : "a ProcessConfig object" }],
  });
}
