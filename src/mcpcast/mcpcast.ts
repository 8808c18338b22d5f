/**
 * The deterministic entry point: load a spec, extract its operations, classify them and build the
 * plan. No model is involved and nothing is fetched except a URL source.
 *
 * @module
 */

import { buildPlan, type BuildPlanOptions, type McpcastPlan } from "./plan/mod.ts";
import { type OperationSelection, parseSpec, type ParseSpecOptions, selectOperations } from "./parse/mod.ts";

/** Options for {@linkcode mcpcast}: how to read the spec, which operations to take, and how to plan. */
export interface McpcastOptions extends BuildPlanOptions, Omit<ParseSpecOptions, "baseUrl"> {
  /** Only these operations (by tag or path prefix). @default every operation */
  select?: OperationSelection;
}

/**
 * The plan for `source` (a path, an http(s) URL, inline JSON or YAML text, or a parsed object).
 *
 * @example
 * ```ts
 * import { mcpcast, savePlan } from "@agentry/agentry/mcpcast";
 * const plan = await mcpcast("tests/fixtures/specs/petstore_swagger2.yaml", { profile: "standard" });
 * console.log(plan.tools.map((tool) => `${tool.name} (${tool.risk})`));
 * await Deno.writeTextFile("mcpcast.plan.yaml", savePlan(plan));
 * ```
 */
export async function mcpcast(
  source: string | Record<string, unknown>,
  options: McpcastOptions = {},
): Promise<McpcastPlan> {
  const { fetch, env, signal, externalRefs, select, ...plan } = options;
  const spec = await parseSpec(source, { baseUrl: plan.baseUrl, fetch, env, signal, externalRefs });
  return buildPlan(select ? selectOperations(spec, select) : spec, plan);
}
