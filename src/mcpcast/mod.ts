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

// This file is the complete public surface of `@agentry/agentry/mcpcast`; every name added here becomes
// public API. Names are listed one by one; the stages' plumbing stays in their folders.

// The one-call converter, and the error every stage throws (generated launchers catch it).
export { mcpcast, type McpcastOptions } from "./mcpcast.ts";
export { McpcastError } from "./errors.ts";

// The stages one by one, for callers that inspect or adjust between them (the CLI's preview and
// wizard, the benchmarks): parse a spec, classify an operation, build a plan (with the auth mode it
// takes when none is chosen).
export {
  type ExternalRefsOptions,
  type OperationSelection,
  parseSpec,
  type ParseSpecOptions,
  selectOperations,
  specDocument,
} from "./parse/mod.ts";
export {
  buildPlan,
  type BuildPlanOptions,
  type Classification,
  type ClassifiedOperation,
  classify,
  defaultAuth,
} from "./plan/mod.ts";

// The plan file: read, validate, write. Generated launchers call `loadPlan`; users who edit plans
// check them with `validatePlan`.
export {
  isPlanDocument,
  loadPlan,
  type PlanValidation,
  savePlan,
  validatePlan,
  writePlanFile,
} from "./plan/mod.ts";

// Questions about a plan and the rules it follows, for tools that present plans (the CLI's
// report and wizard).
export { API_NAME_PATTERN, effectiveApproval, gatedTools, SAFETY_PROFILES } from "./plan/mod.ts";

// The plan's shape: the types of what `buildPlan` returns and `loadPlan` reads.
export type {
  ApiPlan,
  DroppedOp,
  McpcastPlan,
  ParamPlan,
  RouteParam,
  RouteParamLocation,
  RoutePlan,
  SchemePlan,
  ToolPlan,
} from "./plan/mod.ts";

// The parsed spec's shape and the vocabulary of options: the types of what `parseSpec` returns
// and of the profile, auth and approval choices.
export type {
  ApprovalMode,
  AuthMode,
  BodyEncoding, // slice C
  CredentialSlot,
  EnvLookup,
  HttpMethod,
  JsonSchema,
  Operation,
  ParamLocation,
  ParamSpec,
  ParamStyle, // slice C
  ParsedSpec,
  RiskClass,
  SafetyProfile,
  SecurityScheme,
  SecuritySchemeType,
  SpecInfo,
} from "./types.ts";

// The generated project: rendered in memory or written with mcpcast's ownership rules.
export {
  type FrameworkImport,
  frameworkImports,
  renderProject,
  type RenderProjectOptions,
  writeProject,
  type WriteProjectOptions,
  type WriteResult,
} from "./emit/mod.ts";

// Curation with a model (issue 19).
export { curate, type CurateOptions, type CurationProgress, type CurationResult } from "./curate/mod.ts";
export { type Completer, modelCompleter, type ModelCompleterOptions } from "./model/mod.ts";

// Evaluation: the Agent Readiness Score (issue 19).
export {
  type BuildEvalServer,
  type ConfusedPair,
  type EvalCall,
  type EvalFix,
  type EvalGrade,
  type EvalProgress,
  type EvalReport,
  type EvalTask,
  type EvalTaskResult,
  evaluate,
  type EvaluateOptions,
  gradeFor,
  renderEvalMarkdown,
  writeEval,
} from "./evaluate/mod.ts";

// The tool surface: report, compact descriptions, meta-tool mode (issue 19).
export {
  compactPlan,
  META_TOOL_NAMES,
  renderSurfaceReport,
  type SurfaceReport,
  surfaceReport,
  type SurfaceVerdict,
  type ToolMode,
  type ToolSize,
} from "./surface/mod.ts";

// The server a plan describes, built in process: what `evaluate` runs against (the command line's
// --eval) and what generated projects serve (issue 19).
export { buildPlanServer, type PlanServerOptions } from "./runtime/mod.ts";
