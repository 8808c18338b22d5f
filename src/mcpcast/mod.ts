/**
 * mcpcast: turns an OpenAPI 3.x or Swagger 2 description into a risk-classified, approval-gated plan
 * for an MCP server: parse (local `$ref`s, limits, scrubbing), classify (read, write, destructive,
 * financial), and plan under a safety profile (`read-only`, `standard`, `full`). The plan is a YAML
 * file (`mcpcast.plan.yaml`, schema version 1) that users edit and the generator follows:
 * `writeProject` emits a Deno project whose server runs on the runtime exported as
 * `@agentry/agentry/mcpcast/runtime` (`buildPlanServer`, `Upstream`).
 *
 * @example
 * ```ts
 * import { mcpcast, savePlan } from "@agentry/agentry/mcpcast";
 * const plan = await mcpcast("tests/fixtures/specs/petstore_swagger2.yaml", { profile: "standard" });
 * console.log(`${plan.tools.length} tools, ${plan.dropped.length} dropped`);
 * console.log(savePlan(plan));
 * ```
 *
 * @module
 */

export { mcpcast, type McpcastOptions } from "./mcpcast.ts";
export { McpcastError } from "./errors.ts";
export { type ExternalRefsOptions, parseSpec, type ParseSpecOptions } from "./parse/mod.ts";
export { buildPlan, type BuildPlanOptions } from "./build_plan.ts";
export { type Classification, type ClassifiedOperation, classify, riskFloor } from "./classify.ts";
export { API_NAME_PATTERN, groupFor, RESERVED_TOOL_NAMES, TOOL_NAME_PATTERN, toolNameFor } from "./names.ts";
export { isPlanDocument, loadPlan, PLAN_HEADER, savePlan } from "./plan_yaml.ts";
export { writePlanFile } from "./plan_file.ts";
export {
  effectiveApproval,
  gatedTools,
  keptOperations,
  parsePlan,
  type PlanValidation,
  toolNames,
  validatePlan,
} from "./plan_schema.ts";
export type {
  ApiPlan,
  DroppedOp,
  McpcastPlan,
  ParamPlan,
  RouteParam,
  RouteParamLocation,
  RoutePlan,
  ToolPlan,
} from "./plan_types.ts";
export { needsApproval, profileAllows, SAFETY_PROFILES } from "./safety_profile.ts";
export { exampleMismatch } from "./examples.ts";
export {
  type ApprovalMode,
  type AuthMode,
  type CredentialSlot,
  type EnvLookup,
  type HttpMethod,
  type JsonSchema,
  type Operation,
  type ParamLocation,
  type ParamSpec,
  type ParsedSpec,
  RISK_SEVERITY,
  type RiskClass,
  type SafetyProfile,
  type SecurityScheme,
  type SecuritySchemeType,
  type SpecInfo,
} from "./types.ts";
export {
  DEFAULT_FRAMEWORK_IMPORT,
  type FrameworkImport,
  GENERATED_MARK,
  hasGeneratedHeader,
  renderProject,
  type RenderProjectOptions,
  SCAFFOLD_FILES,
  writeProject,
  type WriteProjectOptions,
  type WriteResult,
} from "./emit/mod.ts";
