/**
 * From a spec to the plan `agentry mcpcast SOURCE` writes: parse, then plan without a model (one tool
 * per operation) or curate with `--model`, then `--descriptions compact` and `--tool-mode`. Nothing is
 * written here: an interrupted or failed curation leaves the output directory untouched.
 *
 * @module
 */

import {
  buildPlan,
  compactPlan,
  curate,
  type CurationResult,
  type McpcastPlan,
  type ParsedSpec,
  selectOperations,
} from "../../mcpcast/mod.ts";
import type { CliContext } from "../cli_context.ts";
import type { McpcastArgs } from "./args.ts";
import { evalNeeds } from "./cast_eval.ts";
import type { ResolvedModel } from "./model.ts";
import { requirePermissions } from "./permissions.ts";
import { curationProgress } from "./model_progress.ts";
import type { Progress } from "./progress.ts";
import { parseSource } from "./source.ts";

/** The plan of a spec, and how curation went when a model designed it. */
export interface SpecPlan {
  /** The parsed spec (with response schemas when an evaluation follows: its mocks use them). */
  spec: ParsedSpec;
  /** The plan to write. */
  plan: McpcastPlan;
  /** Curation's answer, when `--model` curated. */
  curation?: CurationResult;
  /** The tool name the planner derives for each operation (for the review's "renamed from"). */
  derivedNames?: ReadonlyMap<string, string>;
}

/** Parses SOURCE and plans it (curating with `model` when the arguments ask for it). */
export async function planFromSpec(
  options: McpcastArgs,
  ctx: CliContext,
  context: { progress: Progress; model?: ResolvedModel },
): Promise<SpecPlan> {
  const { progress, model } = context;
  const parsed = await parseSource(options.source!, {
    baseUrl: options.baseUrl,
    signal: ctx.signal,
    env: ctx.env,
    externalRefs: options.externalRefs,
    responseSchemas: options.evaluate !== undefined,
  });
  const spec = options.select ? selectOperations(parsed, options.select) : parsed;
  progress.operations(spec.operations.length);
  const shape = {
    profile: options.profile,
    auth: options.auth,
    approval: options.approval,
    baseUrl: options.baseUrl,
    name: options.name,
  };
  // Reads may reach the API during --eval: its hosts are checked before the model is asked anything.
  if (options.evaluate?.offline === false) {
    requirePermissions(evalNeeds(buildPlan(spec, everyOperation(options))));
  }
  let planned: SpecPlan;
  if (options.curate && model !== undefined) {
    const curation = await curate(spec, {
      ...shape,
      complete: model.complete,
      maxTools: options.maxTools,
      signal: ctx.signal,
      onProgress: curationProgress(progress, model.model),
    });
    planned = { spec, plan: curation.plan, curation, derivedNames: derivedNames(spec) };
  } else {
    progress.phase("planning");
    planned = { spec, plan: buildPlan(spec, { ...shape, maxTools: options.maxTools }) };
  }
  return { ...planned, plan: shapeSurface(planned.plan, options) };
}

/** `--descriptions compact` and `--tool-mode` applied to `plan`. */
export function shapeSurface(
  plan: McpcastPlan,
  options: Pick<McpcastArgs, "descriptions" | "toolMode">,
): McpcastPlan {
  const compact = options.descriptions === "compact" ? compactPlan(plan) : plan;
  if (options.toolMode === undefined) return compact;
  return { ...compact, api: { ...compact.api, tool_mode: options.toolMode } };
}

/** Planner options that keep every mappable operation (env-token: no auth mode refuses the spec). */
function everyOperation(options: { baseUrl?: string }) {
  return { profile: "full", auth: "env-token", baseUrl: options.baseUrl } as const;
}

/**
 * Operation id → the tool name the planner derives for it (a plan of every operation, with env-token
 * auth so that no auth mode refuses the spec).
 */
export function derivedNames(spec: ParsedSpec): Map<string, string> {
  const names = new Map<string, string>();
  const all = buildPlan(spec, everyOperation({}));
  for (const tool of all.tools) {
    for (const route of tool.routes) names.set(route.operation_id, tool.name);
  }
  return names;
}
