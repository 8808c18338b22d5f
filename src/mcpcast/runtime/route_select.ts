/**
 * Which values a call sends and which route carries them: hidden parameters are sent with their
 * default, visible ones as given (or their default), and the first route, in plan order, whose
 * required parameters were all supplied is the one called.
 *
 * @module
 */

import { ToolError } from "../../tool_error.ts";
import type { RoutePlan, ToolPlan } from "../plan/mod.ts";
import type { JsonSchema } from "../types.ts";

/** Whether `schema` admits null (JSON Schema `type: [.., "null"]`, OpenAPI `nullable`, a null enum member…). */
export function admitsNull(schema: JsonSchema | undefined): boolean {
  if (schema === undefined) return false;
  if (schema.nullable === true || schema["x-nullable"] === true) return true;
  const type = schema.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  for (const key of ["anyOf", "oneOf"]) {
    const members = schema[key];
    if (Array.isArray(members) && members.some((member) => admitsNull(member as JsonSchema))) return true;
  }
  return false;
}

/**
 * The values one call sends, by tool parameter name: hidden parameters with their default (the
 * agent cannot set them), visible ones as the agent gave them, else their default. Names the plan
 * does not know are ignored.
 *
 * @example
 * ```ts ignore
 * callValues(tool, { petId: 7 }); // Map { "petId" => 7, "api_version" => "2" }
 * ```
 */
export function callValues(tool: ToolPlan, args: Readonly<Record<string, unknown>>): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const [name, param] of Object.entries(tool.params)) {
    const given = !param.hidden && Object.hasOwn(args, name) ? args[name] : undefined;
    const value = given !== undefined ? given : param.default;
    if (value !== undefined) values.set(name, value);
  }
  return values;
}

/** Whether the call supplied `name` (null counts only where the parameter's schema admits null). */
export function supplied(tool: ToolPlan, name: string, values: ReadonlyMap<string, unknown>): boolean {
  const value = values.get(name);
  if (value === undefined) return false;
  return value !== null || admitsNull(tool.params[name]?.json_schema);
}

/** The parameters `route` requires, in its own order. */
export function requiredOf(route: RoutePlan): string[] {
  return Object.entries(route.params).filter(([, param]) => param.required).map(([name]) => name);
}

/**
 * `a + b | c | (no parameters)`: the visible parameters each route requires, one alternative per
 * distinct set, in route order.
 */
export function routeAlternatives(tool: ToolPlan): string {
  const seen = new Set<string>();
  for (const route of tool.routes) {
    const visible = requiredOf(route).filter((name) => tool.params[name]?.hidden !== true);
    seen.add(visible.length === 0 ? "(no parameters)" : visible.join(" + "));
  }
  return [...seen].join(" | ");
}

/**
 * The first route of `tool` whose required parameters are all in `values`.
 *
 * @throws {ToolError} `VALIDATION_ERROR` naming the alternatives when no route can be called.
 */
export function selectRoute(tool: ToolPlan, values: ReadonlyMap<string, unknown>): RoutePlan {
  const route = tool.routes.find((candidate) =>
    requiredOf(candidate).every((name) => supplied(tool, name, values))
  );
  if (route !== undefined) return route;
  const alternatives = routeAlternatives(tool);
  throw new ToolError(
    "VALIDATION_ERROR",
    `No route of this tool has its required arguments. Provide one of: ${alternatives}`,
    { suggestion: `Call ${tool.name} again with one of: ${alternatives}` },
  );
}
