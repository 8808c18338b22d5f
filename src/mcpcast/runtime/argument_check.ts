/**
 * The generated server's own argument checks, after the framework has checked the advertised input
 * schema (types, required, enums, bounds) and before a request is built:
 *
 * - An argument the tool does not advertise (a misspelt name, a hidden parameter) is refused with
 *   `VALIDATION_ERROR` naming it and listing the tool's parameters, instead of being dropped silently:
 *   an agent that misspells `per_page` as `perPage` learns it rather than getting the default.
 * - String formats (`uuid`, `date`, `date-time`, `email`, `uri`, `hostname`, `ipv4`, `ipv6`, `time`)
 *   are checked at every depth (see `json_check.ts`), so the agent gets "must match format uuid"
 *   instead of the upstream's generic 400.
 *
 * Messages name the argument and the rule, never the value.
 *
 * @module
 */

import { ToolError } from "../../tool_error.ts";
import type { ToolPlan } from "../plan/mod.ts";
import type { JsonSchema } from "../types.ts";
import { schemaProblem } from "./json_check.ts";
import { cleanSchema } from "./schema_clean.ts";

/** Most parameter names listed in an unknown-argument message. */
const LISTED_MAX = 30;

/** Per tool: the cleaned schema of each visible parameter whose schema names a format. */
const formatted = new WeakMap<ToolPlan, ReadonlyMap<string, JsonSchema>>();

function formattedParams(tool: ToolPlan): ReadonlyMap<string, JsonSchema> {
  let found = formatted.get(tool);
  if (found === undefined) {
    const entries = Object.entries(tool.params)
      .filter(([, param]) => !param.hidden && JSON.stringify(param.json_schema).includes('"format"'))
      .map(([name, param]) => [name, cleanSchema(param.json_schema)] as const);
    found = new Map(entries);
    formatted.set(tool, found);
  }
  return found;
}

function listed(names: string[]): string {
  if (names.length === 0) return "no arguments";
  const shown = names.slice(0, LISTED_MAX).join(", ");
  return names.length > LISTED_MAX ? `${shown} and ${names.length - LISTED_MAX} more` : shown;
}

/**
 * Refuses arguments `tool` does not advertise and string values that break their declared format.
 *
 * @throws {ToolError} `VALIDATION_ERROR` naming the argument (and, for a format, where in it).
 *
 * @example
 * ```ts ignore
 * checkArguments(tool, { perPage: 10 });
 * // ToolError VALIDATION_ERROR: Unknown argument 'perPage'. This tool takes: owner, repo, per_page
 * ```
 */
export function checkArguments(tool: ToolPlan, args: Readonly<Record<string, unknown>>): void {
  const known = Object.entries(tool.params).filter(([, param]) => !param.hidden).map(([name]) => name);
  const unknown = Object.keys(args).filter((name) =>
    !Object.hasOwn(tool.params, name) || tool.params[name].hidden
  );
  if (unknown.length > 0) {
    const names = unknown.map((name) => `'${name}'`).join(", ");
    throw new ToolError(
      "VALIDATION_ERROR",
      `Unknown argument${unknown.length > 1 ? "s" : ""} ${names}. This tool takes: ${listed(known)}`,
      { suggestion: `Call ${tool.name} again with only its own arguments: ${listed(known)}` },
    );
  }
  for (const [name, schema] of formattedParams(tool)) {
    const value = args[name];
    if (value === undefined) continue;
    const problem = schemaProblem(schema, value);
    if (problem === undefined) continue;
    const where = problem.path === "" ? "" : ` at ${problem.path}`;
    throw new ToolError("VALIDATION_ERROR", `Argument '${name}'${where} ${problem.message}`, {
      suggestion: `Call ${tool.name} again with a valid '${name}'`,
    });
  }
}
