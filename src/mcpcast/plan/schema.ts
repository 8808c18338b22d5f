/**
 * Zod schemas of the plan file (`mcpcast.plan.yaml`, schema version 1): unknown keys refused, defaults
 * filled, text scrubbed of terminal controls, YAML dates and non-finite numbers in schemas, defaults
 * and examples turned into JSON-native strings, and every invariant of `invariants.ts` checked.
 * {@linkcode parsePlan} turns a parsed document into a {@linkcode McpcastPlan} or an
 * {@linkcode McpcastError} listing each problem's location and message, never its value.
 *
 * @module
 */

import { z } from "zod";
import { McpcastError } from "../errors.ts";
import { API_NAME_PATTERN, toolNameProblem } from "./names.ts";
import { type PlanIssue, toolIssues } from "./invariants.ts";
import { apiIssues, planIssues } from "./wide_invariants.ts";
import type { ApiPlan, DroppedOp, McpcastPlan, ParamPlan, RoutePlan, ToolPlan } from "./types.ts";
import { formatIssueList, zodIssues } from "./issues.ts";
import { scrubText } from "../_scrub.ts";
import { jsonNative } from "./json_native.ts";
import { isMapping } from "../_spec_values.ts";
import { PARAM_STYLES } from "../types.ts";
import { looksLikeHttpUrl, publicUrl } from "../_spec_url.ts";
import { cleanUrlToken, urlTokenProblem } from "../_url_token.ts";

export type { ApiPlan, DroppedOp, McpcastPlan, ParamPlan, RouteParam, RoutePlan, ToolPlan } from "./types.ts";

type Refinement = { addIssue(issue: { code: "custom"; path?: PropertyKey[]; message: string }): void };

function report(ctx: Refinement, issues: readonly PlanIssue[]): void {
  for (const issue of issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
}

// Strings are cleaned with `overwrite` (a check that replaces the value) rather than `transform` (a
// pipe into a second schema): the same result at a fraction of the cost over a plan's many fields.
const text = z.string().overwrite(scrubText);
const nonBlank = (what: string) =>
  z.string().overwrite((value) => scrubText(value).trim()).refine((value) => value !== "", {
    message: `${what} must not be blank`,
  });
const paramName = z.string().min(1, "parameter name must not be empty").overwrite(scrubText);

/**
 * A map of parameters by name. Zod leaves a `__proto__` key out of the records it builds (it would set
 * their prototype), so such a parameter is refused here instead of vanishing.
 */
function paramMap<T>(value: z.ZodType<T>) {
  return z.preprocess((input, ctx) => {
    if (typeof input === "object" && input !== null && Object.hasOwn(input, "__proto__")) {
      ctx.addIssue({
        code: "custom",
        path: ["__proto__"],
        message: "parameter name '__proto__' is not supported",
      });
    }
    return input;
  }, z.record(paramName, value));
}

/** `value` made JSON-native (see `json_native.ts`); a self-referencing value becomes an issue. */
function toJson<T>(value: T, ctx: Refinement): T {
  try {
    return jsonNative(value) as T;
  } catch (error) {
    if (!(error instanceof McpcastError)) throw error;
    ctx.addIssue({ code: "custom", message: error.message });
    return value;
  }
}

const jsonValue = z.unknown().transform((value, ctx) => toJson(value, ctx));
const jsonObject = z.custom<Record<string, unknown>>(isMapping, "expected a mapping")
  .transform((value, ctx) => toJson(value, ctx));

function baseUrl(label: string, relativeHint?: string) {
  return z.string().overwrite(cleanUrlToken).superRefine((value, ctx) => {
    const problem = urlTokenProblem(value, { label, relativeHint });
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });
}

type Unset<T, K extends keyof T> = Omit<T, K> & { [P in K]?: Exclude<T[P], null | undefined> };

/**
 * `object` without the `keys` whose value is null or undefined (they mean "not set"): `object` itself
 * when none of them is there, else a copy.
 */
function withoutNulls<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Unset<T, K> {
  if (!keys.some((key) => key in object && (object[key] === null || object[key] === undefined))) {
    return object as Unset<T, K>;
  }
  const out: Partial<T> = { ...object };
  for (const key of keys) if (out[key] === null || out[key] === undefined) delete out[key];
  return out as Unset<T, K>;
}

const RouteParamShape = z.strictObject({
  location: z.enum(["path", "query", "header", "cookie", "body", "raw_body"]), // slice C: header, cookie
  required: z.boolean().default(false),
  wire_name: z.string().overwrite(scrubText).min(1, "wire_name must not be empty").nullish(),
  // slice C: serialization
  style: z.enum(PARAM_STYLES).nullish(),
  explode: z.boolean().nullish(),
  allow_reserved: z.boolean().nullish(),
  content_type: z.string().overwrite(scrubText).min(1, "content_type must not be empty").nullish(),
}).transform((param) =>
  withoutNulls(param, ["wire_name", "style", "explode", "allow_reserved", "content_type"])
);

const RoutePlanShape = z.strictObject({
  operation_id: nonBlank("operation_id"),
  method: z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]),
  path: text.refine((path) => path.startsWith("/"), { message: "route path must start with '/'" }),
  params: paramMap(RouteParamShape).default(() => ({})),
  body_encoding: z.enum(["json", "form", "multipart"]).default("json"),
  base_url: baseUrl("route base_url").nullish(),
  security: z.array(z.array(nonBlank("security scheme id"))).nullish(),
}).transform((route) => withoutNulls(route, ["base_url", "security"]));

/** One route of a tool. Route-level invariants are checked by the tool schema, which names the tool. */
export const RoutePlanSchema: z.ZodType<RoutePlan> = RoutePlanShape;

const ParamPlanShape = z.strictObject({
  description: text.default(""),
  json_schema: jsonObject.default(() => ({ type: "string" })),
  required: z.boolean().default(false),
  default: jsonValue.optional(),
  hidden: z.boolean().default(false),
}).transform((param) => withoutNulls(param, ["default"]));

/** The agent-facing shape of one tool parameter. */
export const ParamPlanSchema: z.ZodType<ParamPlan> = ParamPlanShape;

/** The tool schema, with `route` for each entry of `routes`. */
function toolSchema(route: z.ZodType<RoutePlan>) {
  return z.strictObject({
    name: z.string().superRefine((name, ctx) => {
      const problem = toolNameProblem(name);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: `tool name ${problem}` });
    }),
    description: nonBlank("tool description"),
    risk: z.enum(["read", "write", "destructive", "financial"]),
    routes: z.array(route).min(1, "a tool needs at least one route"),
    params: paramMap(ParamPlanSchema).default(() => ({})),
    example: z.record(paramName, z.unknown()).transform((value, ctx) => toJson(value, ctx)).nullable()
      .default(null),
    requires_approval: z.boolean().default(false),
    tags: z.array(text).default(() => []),
  }).superRefine((tool, ctx) => report(ctx, toolIssues(tool)));
}

/** One tool, with its own invariants (routes, params, dispatch reachability, example keys). */
export const ToolPlanSchema: z.ZodType<ToolPlan> = toolSchema(RoutePlanSchema);

/**
 * A tool whose routes are outputs of {@linkcode RoutePlanSchema} already (as `buildPlan` assembles
 * them): they are taken as they are, and the tool's own invariants, its routes' included, are checked.
 */
export const AssembledToolSchema: z.ZodType<ToolPlan> = toolSchema(z.custom<RoutePlan>());

const DroppedOpShape = z.strictObject({
  operation_id: nonBlank("operation_id"),
  reason: nonBlank("reason"),
});

/** An operation left out, with a reason (both non-blank). */
export const DroppedOpSchema: z.ZodType<DroppedOp> = DroppedOpShape;

const SchemePlanShape = z.strictObject({
  type: z.enum(["bearer", "basic", "http", "api_key"]),
  in: z.enum(["header", "query", "cookie"]),
  name: z.string().refine((name) => /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name), {
    message: "security scheme name must be a non-empty token (RFC 7230 token characters only)",
  }),
  http_scheme: z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, "http_scheme must be one token").nullish(),
}).superRefine((scheme, ctx) => {
  if (
    scheme.type !== "api_key" && !(scheme.in === "header" && scheme.name.toLowerCase() === "authorization")
  ) {
    ctx.addIssue({ code: "custom", message: `a ${scheme.type} scheme travels in the Authorization header` });
  }
  if (scheme.type === "http" && !scheme.http_scheme) {
    ctx.addIssue({ code: "custom", path: ["http_scheme"], message: "an http scheme needs its http_scheme" });
  }
}).transform((scheme) => withoutNulls(scheme, ["http_scheme"]));

const ApiPlanShape = z.strictObject({
  name: z.string().refine((name) => API_NAME_PATTERN.test(name), {
    message: `api name must match ${API_NAME_PATTERN.source} (lower-case letters, digits, '-' or '_')`,
  }),
  base_url: baseUrl(
    "base_url",
    "pass --base-url https://<api-host>[/prefix] (the spec declares no absolute server URL)",
  ),
  auth: z.enum(["passthrough", "env-token", "api-key", "none"]).default("passthrough"),
  approval: z.enum(["elicitation", "pending"]).nullable().default(null),
  description: text.default(""),
  spec_source: text.transform((source) => looksLikeHttpUrl(source) ? publicUrl(source) : source).nullable()
    .default(
      null,
    ),
  credential_location: z.enum(["header", "query"]).default("header"),
  credential_name: z.string().default("Authorization"),
  security_schemes: z.record(z.string().min(1, "security scheme id must not be empty"), SchemePlanShape)
    .nullish(),
  // `direct` is the default and is left out of the validated form (so a saved plan reads back equal).
  tool_mode: z.enum(["direct", "meta"]).nullish().transform((mode) => mode === "direct" ? undefined : mode),
}).superRefine((api, ctx) => report(ctx, apiIssues(withoutNulls(api, ["security_schemes", "tool_mode"]))))
  .transform((api) => withoutNulls(api, ["security_schemes", "tool_mode"]));

/** The API section, with its own invariants (approval mode, credential slot). */
export const ApiPlanSchema: z.ZodType<ApiPlan> = ApiPlanShape;

/** The plan schema, with `tool` for each entry of `tools`. */
function planSchema(tool: z.ZodType<ToolPlan>) {
  return z.strictObject({
    version: z.literal(1, { error: "version must be 1 (the only plan schema version this mcpcast reads)" })
      .default(1),
    api: ApiPlanSchema,
    profile: z.enum(["read-only", "standard", "full"]).default("read-only"),
    tools: z.array(tool).default(() => []),
    dropped: z.array(DroppedOpSchema).default(() => []),
  }).superRefine((plan, ctx) => report(ctx, planIssues(plan)));
}

/** A whole plan, with every invariant checked. */
export const McpcastPlanSchema: z.ZodType<McpcastPlan> = planSchema(ToolPlanSchema);

/** A plan whose tools are already outputs of {@linkcode ToolPlanSchema}: they are taken as they are. */
const AssembledPlanSchema: z.ZodType<McpcastPlan> = planSchema(z.custom<ToolPlan>());

/** Outcome of {@linkcode validatePlan}. */
export type PlanValidation = { ok: true; plan: McpcastPlan } | { ok: false; issues: string[] };

/** Validates a plan document: the plan with defaults filled, or `- loc: message` lines. */
export function validatePlan(input: unknown): PlanValidation {
  const result = McpcastPlanSchema.safeParse(input);
  return result.success ? { ok: true, plan: result.data } : { ok: false, issues: zodIssues(result.error) };
}

/**
 * Validates a plan assembled from tools that each passed {@linkcode ToolPlanSchema} already (as
 * `buildPlan` does): everything but the tools' own checks, which would only repeat. The plan-wide
 * invariants (unique names, reachable routes, and so on) are checked.
 */
export function validateAssembledPlan(input: unknown): PlanValidation {
  const result = AssembledPlanSchema.safeParse(input);
  return result.success ? { ok: true, plan: result.data } : { ok: false, issues: zodIssues(result.error) };
}

/**
 * The plan in `input` (a parsed document), with defaults filled.
 *
 * @throws {McpcastError} "invalid plan:" and one `- loc: message` line per problem.
 */
export function parsePlan(input: unknown): McpcastPlan {
  const result = validatePlan(input);
  if (!result.ok) throw new McpcastError(`invalid plan:\n${formatIssueList(result.issues)}`);
  return result.plan;
}

/** Who approves gated calls: the explicit mode, else `pending` for api-key auth, else `elicitation`. */
export function effectiveApproval(api: Pick<ApiPlan, "approval" | "auth">): "elicitation" | "pending" {
  return api.approval ?? (api.auth === "api-key" ? "pending" : "elicitation");
}

/** The tools that wait for a human decision, in plan order. */
export function gatedTools(plan: McpcastPlan): ToolPlan[] {
  return plan.tools.filter((tool) => tool.requires_approval);
}

/** Every operation id some tool calls. */
export function keptOperations(plan: McpcastPlan): Set<string> {
  return new Set(plan.tools.flatMap((tool) => tool.routes.map((route) => route.operation_id)));
}

/** Tool names in plan order. */
export function toolNames(plan: McpcastPlan): string[] {
  return plan.tools.map((tool) => tool.name);
}
