/**
 * Whether a tool's example passes the input schema the tool advertises: the visible parameters'
 * cleaned schemas (formats included, see `runtime/json_check.ts`), the required ones present, and no
 * argument the tool does not take (the server refuses those).
 *
 * @module
 */

import { cleanSchema, schemaProblem } from "../../runtime/internal.ts";
import type { ParamPlan } from "../types.ts";

/**
 * Why `example` would not pass the tool's advertised input schema (the argument and the rule, never
 * the value), or undefined when it passes.
 *
 * @example
 * ```ts
 * import { toolExampleProblem } from "./example_check.ts";
 * const params = {
 *   id: { description: "", json_schema: { type: "string", format: "uuid" }, required: true, hidden: false },
 * };
 * toolExampleProblem({ id: "7" }, params); // "'id' must match format \"uuid\""
 * ```
 */
export function toolExampleProblem(
  example: Readonly<Record<string, unknown>>,
  params: Readonly<Record<string, ParamPlan>>,
): string | undefined {
  for (const name of Object.keys(example)) {
    if (!Object.hasOwn(params, name) || params[name].hidden) {
      return `'${name}' is not an argument of the tool`;
    }
  }
  for (const [name, param] of Object.entries(params)) {
    if (param.hidden) continue;
    if (!Object.hasOwn(example, name)) {
      if (param.required) return `'${name}' is required`;
      continue;
    }
    const problem = schemaProblem(cleanSchema(param.json_schema), example[name]);
    if (problem !== undefined) {
      return `'${name}'${problem.path === "" ? "" : ` at ${problem.path}`} ${problem.message}`;
    }
  }
  return undefined;
}
