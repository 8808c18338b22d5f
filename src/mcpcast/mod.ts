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
export {
  API_NAME_PATTERN,
  type ApiPlan,
  buildPlan,
  type BuildPlanOptions,
  type Classification,
  type ClassifiedOperation,
  classify,
  type DroppedOp,
  effectiveApproval,
  exampleMismatch,
  gatedTools,
  groupFor,
  isPlanDocument,
  keptOperations,
  loadPlan,
  type McpcastPlan,
  needsApproval,
  type ParamPlan,
  parsePlan,
  PLAN_HEADER,
  type PlanValidation,
  profileAllows,
  RESERVED_TOOL_NAMES,
  riskFloor,
  type RouteParam,
  type RouteParamLocation,
  type RoutePlan,
  SAFETY_PROFILES,
  savePlan,
  TOOL_NAME_PATTERN,
  toolNameFor,
  toolNames,
  type ToolPlan,
  validatePlan,
  writePlanFile,
} from "./plan/mod.ts";
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
