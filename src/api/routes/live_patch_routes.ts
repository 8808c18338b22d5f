/**
 * Live patches of the budget and health sections (issue 13, spec 000 "Live configuration" rules 1-4):
 * `PATCH /processes/{name}/budget` and `PATCH /processes/{name}/health`.
 *
 * The body holds the fields to change, merged onto the current section as a JSON merge patch (RFC 7396:
 * objects such as `escalation` and `tool_costs` merge key by key, `null` removes a field so it falls back
 * to its default, which is "unlimited" for every limit). The resulting section is validated as a whole
 * with the deploy schema (strict JSON types) before anything changes: an undeclared field, also nested,
 * is 422 UNKNOWN_FIELD; an invalid value 422 INVALID_CONFIG; an empty body 422 MISSING_FIELD; a `${VAR}`
 * reference outside the allowed variables 403 ENV_REFERENCES_NOT_ALLOWED. The new section is kept in the
 * store for API deployments (a restart keeps it). Answers `{name, <section>: {...}, live: true,
 * effective_from}`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import {
  type AgentProcess,
  checkEnvReferences,
  isUnknownFieldIssue,
  parseSection,
  UnresolvedEnvReferenceError,
} from "../../runtime/mod.ts";
import { ApiError } from "../errors.ts";
import { errorResponses, jsonContent, NameParamSchema } from "../schemas.ts";
import { BudgetPatchAnswerSchema, HealthPatchAnswerSchema } from "../live_patch_schemas.ts";
import { findProcess, refusePolicy, type RouteContext } from "./route_context.ts";

type LiveSection = "budget" | "health" | "mission"; // mission: mission_routes.ts

const PATCH_BODY = {
  content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
  required: true,
};

/** Adds `PATCH /processes/{name}/budget` and `PATCH /processes/{name}/health`. */
export function registerLivePatchRoutes(ctx: RouteContext): void {
  const { route } = ctx;
  route({
    method: "patch",
    path: "/api/v1/processes/{name}/budget",
    summary: "Change budget fields live: limits apply at the next budget check; usage is kept",
    operationId: "updateBudget",
    takesBody: true,
    request: { params: NameParamSchema, body: PATCH_BODY },
    responses: {
      200: jsonContent(BudgetPatchAnswerSchema, "The new budget section"),
      ...errorResponses(400, 401, 403, 404, 422),
    },
  }, async (c) => {
    const process = findProcess(ctx.runtime, c.req.param("name") ?? "");
    const budget = await patchSection(ctx, process, { key: "budget", body: c.get("body") });
    return c.json({
      name: process.name,
      budget,
      live: true as const,
      effective_from: "next_budget_check" as const,
    });
  });

  route({
    method: "patch",
    path: "/api/v1/processes/{name}/health",
    summary: "Change health fields live: thresholds apply at the next check; history is kept",
    operationId: "updateHealth",
    takesBody: true,
    request: { params: NameParamSchema, body: PATCH_BODY },
    responses: {
      200: jsonContent(HealthPatchAnswerSchema, "The new health section"),
      ...errorResponses(400, 401, 403, 404, 422),
    },
  }, async (c) => {
    const process = findProcess(ctx.runtime, c.req.param("name") ?? "");
    const health = await patchSection(ctx, process, { key: "health", body: c.get("body") });
    return c.json({ name: process.name, health, live: true as const, effective_from: "immediate" as const });
  });
}

/**
 * Validates the merged section and applies it; throws the API error and changes nothing otherwise (also
 * used by `PATCH /processes/{name}/mission`, mission_routes.ts).
 */
export async function patchSection<K extends LiveSection>(
  ctx: RouteContext,
  process: AgentProcess,
  options: { key: K; body: Record<string, unknown> | undefined },
): Promise<AgentProcess["config"][K]> {
  const { key } = options;
  const body = options.body ?? {};
  if (Object.keys(body).length === 0) {
    throw new ApiError("MISSING_FIELD", `The body needs at least one ${key} field to change.`, {
      details: [{ field: "(body)", expected: `an object with the ${key} fields to change` }],
    });
  }
  refusePolicy(checkEnvReferences(body, ctx.policy, { prefix: "" }), {
    logger: ctx.logger,
    process: process.name,
  });
  const raw = mergePatch(process.config[key], body);
  const parsed = parseSection(key, raw, { prefix: "" });
  if (!parsed.ok) {
    const unknown = parsed.issues.filter(isUnknownFieldIssue);
    const issues = unknown.length > 0 ? unknown : parsed.issues;
    const details = issues.map((i) => ({
      field: i.field === "(config)" ? "(body)" : i.field,
      expected: i.expected,
    }));
    const fields = details.map((d) => d.field).join(", ");
    throw unknown.length > 0
      ? new ApiError("UNKNOWN_FIELD", `Unknown ${key} field(s): ${fields}.`, { details })
      : new ApiError("INVALID_CONFIG", `The ${key} section would not be valid: ${fields}.`, { details });
  }
  try {
    await ctx.runtime.updateSection(process.name, key, { section: parsed.config, raw });
  } catch (error) {
    if (!(error instanceof UnresolvedEnvReferenceError)) throw error;
    throw new ApiError("INVALID_CONFIG", `A \${VAR} reference in the ${key} section cannot be resolved.`, {
      details: [{ field: "(body)", expected: "references to variables the process can resolve" }],
    });
  }
  return parsed.config;
}

/** JSON merge patch (RFC 7396): objects merge key by key, `null` removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): Record<string, unknown> {
  const base = isPlainObject(target) ? { ...target } : {};
  if (!isPlainObject(patch)) return base;
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete base[field];
    else if (isPlainObject(value)) base[field] = mergePatch(base[field], value);
    else base[field] = value;
  }
  return base;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
