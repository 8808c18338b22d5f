/**
 * The deterministic entry point: load a spec, extract its operations, classify them and build the
 * plan. No model is involved and nothing is fetched except a URL source.
 *
 * @module
 */

import { buildPlan, type BuildPlanOptions, type McpcastPlan } from "./plan/mod.ts";
import { parseSpec, type ParseSpecOptions } from "./parse/mod.ts";

/** Options for {@linkcode mcpcast}: how to read the spec and how to plan. */
export interface McpcastOptions extends BuildPlanOptions, Omit<ParseSpecOptions, "baseUrl"> {}

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
  const { fetch, env, signal, externalRefs, ...plan } = options;
  const spec = await parseSpec(source, { baseUrl: plan.baseUrl, fetch, env, signal, externalRefs });
  return buildPlan(spec, plan);
}
