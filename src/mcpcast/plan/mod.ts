/**
 * The plan stage: parsed operations classified by risk, named, filtered by a safety profile and
 * mapped to tool routes; the plan's schema, invariants and YAML form.
 *
 * @module
 */

export { buildPlan, type BuildPlanOptions, defaultAuth } from "./build_plan.ts";
export type {
  ApiPlan,
  DroppedOp,
  McpcastPlan,
  ParamPlan,
  RouteParam,
  RouteParamLocation,
  RoutePlan,
  SchemePlan,
  ToolMode,
  ToolPlan,
} from "./types.ts";
export { META_TOOL_NAMES } from "./tool_mode.ts";
export { type Classification, type ClassifiedOperation, classify, riskFloor } from "./classify.ts";
export { API_NAME_PATTERN, groupFor, TOOL_NAME_PATTERN } from "./names.ts";
export { isPlanDocument, loadPlan, PLAN_HEADER, savePlan } from "./yaml.ts";
export { writePlanFile } from "./file.ts";
export { effectiveApproval, gatedTools, parsePlan, type PlanValidation, validatePlan } from "./schema.ts";
export { SAFETY_PROFILES } from "./safety_profile.ts";
export { exampleMismatch, withinBounds } from "./examples/mod.ts";
