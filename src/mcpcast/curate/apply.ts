/**
 * A checked proposal turned into a plan: tools the profile forbids left out (their operations dropped
 * with the profile's reason), parameters merged over each tool's operations with the model's changes,
 * examples kept only when they fit, tags, approval per profile, operations never mentioned dropped as
 * "not selected by curation", the unmappable ones last; the whole plan validated.
 *
 * @module
 */

import {
  describeOperation,
  makeExample,
  needsApproval,
  profileAllows,
  profileExclusionReason,
  schemesOf,
  toolExampleProblem,
} from "../plan/internal.ts";
import {
  type DroppedOp,
  exampleMismatch,
  type McpcastPlan,
  type ParamPlan,
  type ToolPlan,
} from "../plan/mod.ts";
import { validatePlan } from "../plan/mod.ts";
import type { CatalogueEntry, CurationContext } from "./context.ts";
import type { Proposal, ProposedTool } from "./proposal.ts";
import { entriesOf, hasDefault, paramUnion } from "./rules.ts";

/** Why an operation the model neither kept nor dropped is not a tool. */
export const NOT_SELECTED = "not selected by curation";

/** The tool's parameters: the union over its operations (first definition wins) with the model's changes. */
function mergedParams(tool: ProposedTool, entries: readonly CatalogueEntry[]): Record<string, ParamPlan> {
  const params: Record<string, ParamPlan> = {};
  for (const name of paramUnion(entries)) {
    const spec = entries.map((entry) => entry.params.get(name)).find((param) => param !== undefined)!;
    const adjustment = tool.params?.[name];
    const plan: ParamPlan = {
      description: adjustment?.description?.trim() || (spec.description ?? ""),
      json_schema: Object.keys(spec.schema).length > 0 ? spec.schema : { type: "string" },
      required: entries.every((entry) => entry.route.params[name]?.required === true),
      hidden: adjustment?.hidden === true,
    };
    if (hasDefault(adjustment)) plan.default = adjustment!.default;
    Object.defineProperty(params, name, {
      value: plan,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return params;
}

/** The model's example when every entry fits and the tool would accept it, else a synthesised one. */
function exampleFor(
  tool: ProposedTool,
  params: Record<string, ParamPlan>,
  entries: readonly CatalogueEntry[],
): Record<string, unknown> | null {
  const proposed = tool.example;
  if (proposed !== undefined && proposed !== null && Object.keys(proposed).length > 0) {
    const fits = Object.entries(proposed).every(([name, value]) =>
      Object.hasOwn(params, name) && !params[name].hidden &&
      exampleMismatch(value, params[name].json_schema) === undefined
    );
    if (fits && toolExampleProblem(proposed, params) === undefined) return proposed;
  }
  const firstRequired = Object.keys(entries[0].route.params).filter((name) =>
    entries[0].route.params[name].required
  );
  return makeExample(params, firstRequired);
}

function toolPlanFor(
  tool: ProposedTool,
  entries: readonly CatalogueEntry[],
  context: CurationContext,
): ToolPlan {
  const params = mergedParams(tool, entries);
  const tags = tool.tags !== undefined && tool.tags.length > 0
    ? tool.tags
    : [...new Set(entries.flatMap((entry) => entry.op.tags))].sort();
  return {
    name: tool.name,
    description: tool.description.trim() || describeOperation(entries[0].op),
    risk: tool.risk,
    routes: entries.map((entry) => entry.route),
    params,
    example: exampleFor(tool, params, entries),
    requires_approval: needsApproval(context.profile, tool.risk),
    tags,
  };
}

/** The plan for a proposal that keeps every rule, or the validation's complaints as violations. */
export function applyProposal(
  proposal: Proposal,
  context: CurationContext,
): { plan: McpcastPlan; renamed: Record<string, string[]> } | { violations: string[] } {
  const tools: ToolPlan[] = [];
  const dropped: DroppedOp[] = [];
  const renamed: Record<string, string[]> = {};
  const mentioned = new Set<string>();
  for (const tool of proposal.tools) {
    const entries = entriesOf(tool, context);
    for (const entry of entries) mentioned.add(entry.op.operationId);
    if (!profileAllows(context.profile, tool.risk)) {
      const reason = profileExclusionReason(context.profile, tool.risk);
      for (const entry of entries) dropped.push({ operation_id: entry.op.operationId, reason });
      continue;
    }
    tools.push(toolPlanFor(tool, entries, context));
    Object.defineProperty(renamed, tool.name, {
      value: entries.map((entry) => entry.op.operationId),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  for (const drop of proposal.dropped ?? []) {
    if (!context.catalogue.has(drop.operation_id)) continue; // unmappable: its own reason comes last
    mentioned.add(drop.operation_id);
    dropped.push({ operation_id: drop.operation_id, reason: drop.reason.trim() });
  }
  for (const id of context.catalogue.keys()) {
    if (!mentioned.has(id)) dropped.push({ operation_id: id, reason: NOT_SELECTED });
  }
  dropped.push(...context.unmappable);
  const result = validatePlan({
    version: 1,
    api: { ...context.api, ...schemesOf(tools, context.spec) },
    profile: context.profile,
    tools,
    dropped,
  });
  if (!result.ok) return { violations: result.issues.map((issue) => `the plan would be invalid: ${issue}`) };
  return { plan: result.plan, renamed };
}
