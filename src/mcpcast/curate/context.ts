/**
 * What curation settles before any model call, the way `buildPlan` does: the API section (base URL,
 * credential slot, auth mode and the passthrough refusal, validated), the operations that cannot become
 * tools (kept aside for `dropped`), and the catalogue of those that can, each classified and mapped.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import { type ApiPlan, classify, defaultAuth, type DroppedOp, type RoutePlan } from "../plan/mod.ts";
import {
  ApiPlanSchema,
  credentialSlot,
  declaresSecurity,
  exposedParams,
  formatIssueList,
  mapOperation,
  planBaseUrl,
  refuseUnrelayable,
  type RouteContext,
  toolNameFor,
  zodIssues,
} from "../plan/internal.ts";
import type { Operation, ParamSpec, ParsedSpec, RiskClass, SafetyProfile } from "../types.ts";
import type { CurateOptions } from "./options.ts";

/** One operation the model may use: the operation, its route, its class and its exposed parameters. */
export interface CatalogueEntry {
  /** The spec's operation. */
  op: Operation;
  /** Its validated route. */
  route: RoutePlan;
  /** The classifier's class. */
  risk: RiskClass;
  /** Its parameters a tool exposes, by tool-facing name. */
  params: Map<string, ParamSpec>;
}

/** Everything curation knows before the model speaks. */
export interface CurationContext {
  /** The spec being curated. */
  spec: ParsedSpec;
  /** The validated API section (without `security_schemes`, which depend on the tools). */
  api: ApiPlan;
  /** The profile applied after the model proposes. */
  profile: SafetyProfile;
  /** The tool budget. */
  maxTools: number;
  /** What the API is for, as the prompt shows it. */
  description: string;
  /** Mappable operations by id, in spec order. */
  catalogue: Map<string, CatalogueEntry>;
  /** Operations that cannot become tools, with why (appended to `dropped` at the end). */
  unmappable: DroppedOp[];
  /** The derived tool name of every spec operation (mappable or not) to its operation id. */
  derivedNames: Map<string, string>;
  /** Every exposed parameter name of the catalogue (never taken for a tool name in descriptions). */
  paramNames: Set<string>;
}

const MAX_DESCRIPTION_CHARS = 500;

/** The validated API section for `spec` under `options`. */
function apiPlanFor(spec: ParsedSpec, options: CurateOptions): ApiPlan {
  const auth = options.auth ?? defaultAuth(spec);
  const credential = credentialSlot(spec.operations);
  refuseUnrelayable(auth, credential);
  const parsed = ApiPlanSchema.safeParse({
    name: options.name ?? spec.info.apiName,
    base_url: planBaseUrl(spec, options.baseUrl),
    auth,
    approval: options.approval ?? null,
    description: options.description?.trim() || spec.info.summary,
    spec_source: options.specSource ?? spec.info.sourceLabel ?? null,
    credential_location: credential.location,
    credential_name: credential.name,
  });
  if (!parsed.success) {
    throw new McpcastError(
      `could not curate: invalid API settings:\n${formatIssueList(zodIssues(parsed.error))}`,
    );
  }
  return parsed.data;
}

/**
 * The context of curating `spec`.
 *
 * @throws {McpcastError} when passthrough cannot relay the spec's credential, the API settings are
 * invalid, or no operation can become a tool.
 */
export function curationContext(
  spec: ParsedSpec,
  options: CurateOptions & { profile: SafetyProfile; maxTools: number },
): CurationContext {
  const api = apiPlanFor(spec, options);
  const routing: RouteContext = {
    baseUrl: api.base_url,
    credential: { location: api.credential_location, name: api.credential_name },
    schemes: spec.securitySchemes,
    declared: declaresSecurity(spec),
  };
  const catalogue = new Map<string, CatalogueEntry>();
  const unmappable: DroppedOp[] = [];
  const derivedNames = new Map<string, string>();
  const paramNames = new Set<string>();
  const taken = new Set<string>();
  for (const op of spec.operations) {
    const derived = toolNameFor(op.operationId, taken);
    taken.add(derived);
    derivedNames.set(derived, op.operationId);
    const mapped = mapOperation(op, routing);
    if ("reason" in mapped) {
      unmappable.push({ operation_id: op.operationId, reason: mapped.reason });
      continue;
    }
    const params = new Map(exposedParams(op, routing).map((param) => [param.name, param]));
    for (const name of params.keys()) paramNames.add(name);
    catalogue.set(op.operationId, { op, route: mapped.route, risk: classify(op).risk, params });
  }
  if (catalogue.size === 0) {
    throw new McpcastError(
      `nothing to curate: none of the spec's ${spec.operations.length} operation(s) can become a tool` +
        (unmappable.length > 0 ? ` (first: ${unmappable[0].operation_id}: ${unmappable[0].reason})` : ""),
    );
  }
  const description = (options.description?.trim() || spec.info.description?.trim() || spec.info.summary)
    .slice(0, MAX_DESCRIPTION_CHARS);
  return {
    spec,
    api,
    profile: options.profile,
    maxTools: options.maxTools,
    description,
    catalogue,
    unmappable,
    derivedNames,
    paramNames,
  };
}
