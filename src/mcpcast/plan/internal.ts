/**
 * What the plan stage shares with mcpcast's other stages (curation builds plans the way `buildPlan`
 * does; evaluation synthesises mock upstream answers from a bare schema) and users do not need. Not a
 * published entry point.
 *
 * @module
 */

export {
  declaresSecurity,
  describeOperation,
  planBaseUrl,
  refuseUnrelayable,
  schemesOf,
} from "./build_plan.ts";
export { credentialSlot, exposedParams, mapOperation, type RouteContext } from "./route_map.ts";
export { toolNameFor, toolNameProblem } from "./names.ts";
export { needsApproval, profileAllows, profileExclusionReason } from "./safety_profile.ts";
export { exampleValue, makeExample, toolExampleProblem } from "./examples/mod.ts";
export { ApiPlanSchema } from "./schema.ts";
export { formatIssueList, zodIssues } from "./issues.ts";
