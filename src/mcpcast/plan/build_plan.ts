/**
 * Deterministic planning: one tool per operation, filtered by the safety profile and an optional
 * tool budget. No model, no network. Everything not turned into a tool lands in `dropped` with a
 * reason, so nothing vanishes silently. This is the offline path and the starting point curation
 * refines.
 *
 * @module
 */

import { classify } from "./classify.ts";
import { McpcastError } from "../errors.ts";
import { makeExample } from "./examples/mod.ts";
import { toolNameFor } from "./names.ts";
import { AssembledToolSchema, validateAssembledPlan } from "./schema.ts";
import { formatIssueList } from "./issues.ts";
import type { DroppedOp, McpcastPlan, ParamPlan, RoutePlan, SchemePlan, ToolPlan } from "./types.ts";
import { needsApproval, profileAllows, profileExclusionReason } from "./safety_profile.ts";
import {
  type ApprovalMode,
  type AuthMode,
  type CredentialSlot,
  type Operation,
  type ParsedSpec,
  RISK_SEVERITY,
  type RiskClass,
  type SafetyProfile,
} from "../types.ts";
import {
  credentialSlot,
  describeSlot,
  exposedParams,
  mapOperation,
  type RouteContext,
  schemePlanFor,
} from "./route_map.ts";
import { cleanUrlToken } from "../_url_token.ts";

/** Options of {@linkcode buildPlan}. */
export interface BuildPlanOptions {
  /** Which risk classes become tools. @default "read-only" */
  profile?: SafetyProfile;
  /** API base URL; by default the spec's (document-level server, else the first operation's). */
  baseUrl?: string;
  /**
   * How the generated server authenticates upstream. @default {@linkcode defaultAuth}: "none" when no
   * operation declares a security requirement, else "passthrough" for an Authorization header, else
   * "env-token"
   */
  auth?: AuthMode;
  /** Who approves gated calls; unset means the default for `auth`. */
  approval?: ApprovalMode;
  /** API name; by default the spec's slug. */
  name?: string;
  /** Tool budget (at least 1): reads are kept first, then spec order. @default unlimited */
  maxTools?: number;
}

/** The base URL of the plan: the override, else the first document-level server, else the first own one. */
export function planBaseUrl(spec: ParsedSpec, override?: string): string {
  if (override !== undefined && override.trim() !== "") return cleanUrlToken(override);
  const ops = spec.operations;
  const found = ops.find((op) => op.docBaseUrl !== "")?.docBaseUrl ??
    ops.find((op) => op.baseUrl !== "")?.baseUrl ??
    spec.info.baseUrl;
  return cleanUrlToken(found);
}

/** Whether `passthrough` can relay the credential: only the caller's Authorization header is forwarded. */
function relayable(slot: CredentialSlot): boolean {
  return slot.location === "header" && slot.name.toLowerCase() === "authorization";
}

/** Refuses `passthrough` when the credential is anything but the Authorization header. */
export function refuseUnrelayable(auth: AuthMode, slot: CredentialSlot): void {
  if (auth !== "passthrough" || relayable(slot)) return;
  throw new McpcastError(
    `the spec authenticates with a credential in ${describeSlot(slot)}, which --auth passthrough cannot ` +
      "relay (it forwards only the caller's Authorization header); generate with --auth env-token (one " +
      "upstream credential from MCPCAST_UPSTREAM_TOKEN) or --auth api-key (one per tenant)",
  );
}

/** Whether any operation of `spec` declares a security requirement naming at least one scheme. */
export function declaresSecurity(spec: ParsedSpec): boolean {
  return spec.operations.some((op) =>
    op.securityScheme !== undefined || op.security?.some((requirement) => requirement.length > 0)
  );
}

/**
 * The auth mode when none is chosen, the same for `agentry mcpcast SOURCE` and its guided setup: `none`
 * for a spec that declares no security requirement (nothing is required, so nothing is forwarded),
 * `passthrough` when its credential is the Authorization header (each caller's own is forwarded, the
 * server holds none), else `env-token` (passthrough cannot relay an API key in another header, a query
 * parameter or a cookie).
 *
 * @example
 * ```ts ignore
 * defaultAuth(await parseSpec("petstore.yaml")); // "passthrough"
 * ```
 */
export function defaultAuth(spec: ParsedSpec): AuthMode {
  if (!declaresSecurity(spec)) return "none";
  return relayable(credentialSlot(spec.operations)) ? "passthrough" : "env-token";
}

/** `{security_schemes}` for every scheme some route names, or nothing when none does. */
export function schemesOf(
  tools: readonly ToolPlan[],
  spec: ParsedSpec,
): { security_schemes?: Record<string, SchemePlan> } {
  const ids = [
    ...new Set(tools.flatMap((tool) => tool.routes.flatMap((route) => route.security?.flat() ?? []))),
  ];
  if (ids.length === 0) return {};
  const out: Record<string, SchemePlan> = {};
  for (const id of ids.sort()) {
    const op = spec.operations.find((candidate) => candidate.securityScheme?.id === id);
    const found = Object.hasOwn(spec.securitySchemes, id) ? spec.securitySchemes[id] : op?.securityScheme;
    const scheme = found === undefined ? undefined : schemePlanFor(found);
    if (scheme !== undefined) {
      Object.defineProperty(out, id, { value: scheme, enumerable: true, writable: true, configurable: true });
    }
  }
  return { security_schemes: out };
}

/** The tool description: summary, description, or "METHOD /path"; both when they differ. */
export function describeOperation(
  op: Pick<Operation, "summary" | "description" | "method" | "path">,
): string {
  const summary = op.summary?.trim() ?? "";
  const description = op.description?.trim() ?? "";
  if (summary !== "" && description !== "" && summary !== description) {
    return `${summary.replace(/\.+$/, "")}. ${description}`;
  }
  return summary || description || `${op.method} ${op.path}`;
}

interface ToolContext {
  name: string;
  risk: RiskClass;
  profile: SafetyProfile;
  route: RoutePlan;
  routing: RouteContext;
}

/** The one-route tool for `op` on its validated route (the tool itself not validated). */
function toolFor(op: Operation, context: ToolContext): ToolPlan {
  const params: Record<string, ParamPlan> = Object.fromEntries(
    exposedParams(op, context.routing).map((param) => [param.name, {
      description: param.description ?? "",
      json_schema: Object.keys(param.schema).length > 0 ? param.schema : { type: "string" },
      required: param.required,
      hidden: false,
    }]),
  );
  return {
    name: context.name,
    description: describeOperation(op),
    risk: context.risk,
    routes: [context.route],
    params,
    example: makeExample(params),
    requires_approval: needsApproval(context.profile, context.risk),
    tags: [...op.tags],
  };
}

function budgetReason(maxTools: number): string {
  return `over tool budget (max_tools=${maxTools}); raise --max-tools or let curation pick the most useful tools`;
}

/**
 * Builds the deterministic plan for a parsed spec (reference B.5): resolve the base URL and the
 * credential slot, drop deprecated, unmappable and profile-excluded operations, apply the tool
 * budget, map each remaining operation to one tool, and validate the whole plan.
 *
 * @throws {McpcastError} when `maxTools` is below 1, when `passthrough` cannot relay the spec's
 * credential, or when the plan fails validation ("could not build plan:" then the listing).
 *
 * @example
 * ```ts ignore
 * const plan = buildPlan(await parseSpec(source), { profile: "standard", auth: "env-token" });
 * ```
 */
export function buildPlan(spec: ParsedSpec, options: BuildPlanOptions = {}): McpcastPlan {
  const { profile = "read-only", maxTools } = options;
  if (maxTools !== undefined && !(Number.isInteger(maxTools) && maxTools >= 1)) {
    throw new McpcastError("max_tools must be an integer of at least 1");
  }
  const auth = options.auth ?? defaultAuth(spec);
  const baseUrl = planBaseUrl(spec, options.baseUrl);
  const credential = credentialSlot(spec.operations);
  refuseUnrelayable(auth, credential);
  const routing: RouteContext = {
    baseUrl,
    credential,
    schemes: spec.securitySchemes,
    declared: declaresSecurity(spec),
  };

  const dropped: DroppedOp[] = [];
  const drop = (op: Operation, reason: string) => dropped.push({ operation_id: op.operationId, reason });
  let candidates: { op: Operation; risk: RiskClass; route: RoutePlan }[] = [];
  for (const op of spec.operations) {
    if (op.deprecated) {
      drop(op, "deprecated in spec");
      continue;
    }
    const mapped = mapOperation(op, routing);
    if ("reason" in mapped) {
      drop(op, mapped.reason);
      continue;
    }
    const { risk } = classify(op);
    if (!profileAllows(profile, risk)) drop(op, profileExclusionReason(profile, risk));
    else candidates.push({ op, risk, route: mapped.route });
  }

  if (maxTools !== undefined && candidates.length > maxTools) {
    const ranked = candidates.map((candidate, index) => ({ ...candidate, index }))
      .sort((a, b) => RISK_SEVERITY[a.risk] - RISK_SEVERITY[b.risk] || a.index - b.index);
    const keep = new Set(ranked.slice(0, maxTools).map((candidate) => candidate.index));
    candidates.forEach((candidate, index) => {
      if (!keep.has(index)) drop(candidate.op, budgetReason(maxTools));
    });
    candidates = candidates.filter((_, index) => keep.has(index));
  }

  const taken = new Set<string>();
  const tools: ToolPlan[] = [];
  for (const { op, risk, route } of candidates) {
    const name = toolNameFor(op.operationId, taken);
    taken.add(name);
    const parsed = AssembledToolSchema.safeParse(toolFor(op, { name, risk, profile, route, routing }));
    if (parsed.success) tools.push(parsed.data);
    else drop(op, `unsupported by mcpcast: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  }

  const result = validateAssembledPlan({
    version: 1,
    api: {
      name: options.name ?? spec.info.apiName,
      base_url: baseUrl,
      auth,
      approval: options.approval ?? null,
      description: spec.info.summary,
      spec_source: spec.info.sourceLabel ?? null,
      credential_location: credential.location,
      credential_name: credential.name,
      ...schemesOf(tools, spec),
    },
    profile,
    tools,
    dropped,
  });
  if (!result.ok) throw new McpcastError(`could not build plan:\n${formatIssueList(result.issues)}`);
  return result.plan;
}
