/**
 * The cross-field invariants of a route and a tool, checked after their fields are valid (the API
 * and whole-plan ones are in `plan_wide_invariants.ts`). Each check returns issues
 * (a path inside the checked value and a message); messages name the tool, route, parameter or
 * operation at fault and never repeat a value from the plan (defaults, examples, URLs).
 *
 * @module
 */

import type { RoutePlan, ToolPlan } from "./plan_types.ts";

/** One invariant violation: where (relative to the checked value) and what. */
export interface PlanIssue {
  /** Path inside the checked value (`["routes", 0, "params"]`). */
  path: (string | number)[];
  /** What is wrong, naming the tool/route/parameter, never a value. */
  message: string;
}

/** The `{placeholder}` names of a path template, in order. */
export function pathPlaceholders(path: string): string[] {
  return [...path.matchAll(/\{([^{}/]+)\}/g)].map((match) => match[1]);
}

/** The names a list is written as in messages: `'a', 'b'`. */
function quoted(names: Iterable<string>): string {
  return [...names].map((name) => `'${name}'`).join(", ");
}

/**
 * Issues of one route: placeholders and path parameters match by wire name both ways, path
 * parameters are required, at most one `raw_body` parameter and none beside body parameters, and no
 * two parameters send the same name in the same location. `where` prefixes every message
 * (`tool 'get_pet': route 'getPetById'`).
 */
export function routeIssues(route: RoutePlan, where: string): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const add = (message: string, path: (string | number)[] = ["params"]) =>
    issues.push({ path, message: `${where}: ${message}` });
  const placeholders = new Set(pathPlaceholders(route.path));
  const declared = new Set<string>();
  const sent = new Map<string, string>();
  let rawBodies = 0;
  let bodies = 0;
  for (const [name, param] of Object.entries(route.params)) {
    const wire = param.wire_name ?? name;
    const key = `${param.location} ${wire}`;
    const other = sent.get(key);
    if (other !== undefined) add(`parameters '${other}' and '${name}' both send ${param.location} '${wire}'`);
    else sent.set(key, name);
    if (param.location === "path") {
      declared.add(wire);
      if (!param.required) add(`path parameter '${name}' must be required`, ["params", name, "required"]);
    }
    if (param.location === "raw_body") rawBodies++;
    if (param.location === "body") bodies++;
  }
  const missing = [...placeholders].filter((name) => !declared.has(name));
  if (missing.length > 0) {
    add(`path placeholder(s) ${quoted(missing)} have no matching path parameter`, ["path"]);
  }
  const extra = [...declared].filter((name) => !placeholders.has(name));
  if (extra.length > 0) add(`path parameter(s) ${quoted(extra)} do not appear in the path`);
  if (rawBodies > 1) add("only one raw_body parameter is allowed");
  if (rawBodies > 0 && bodies > 0) add("a raw_body parameter cannot be combined with body parameters");
  return issues;
}

/** Names of the parameters a route requires that the agent must give (not hidden). */
function requiredVisible(route: RoutePlan, tool: ToolPlan): Set<string> {
  return new Set(
    Object.entries(route.params)
      .filter(([name, param]) => param.required && tool.params[name]?.hidden !== true)
      .map(([name]) => name),
  );
}

function isSubset(small: ReadonlySet<string>, big: ReadonlySet<string>): boolean {
  return [...small].every((name) => big.has(name));
}

/** Issues of one route's parameters against the tool's parameters. */
function routeParamIssues(tool: ToolPlan, route: RoutePlan, index: number): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const where = `tool '${tool.name}': route '${route.operation_id}'`;
  const unknown = Object.keys(route.params).filter((name) => !(name in tool.params));
  if (unknown.length > 0) {
    issues.push({
      path: ["routes", index, "params"],
      message: `${where} uses parameter(s) ${quoted(unknown)} that are not declared in params`,
    });
  }
  for (const [name, param] of Object.entries(route.params)) {
    const plan = tool.params[name];
    if (param.required && plan?.hidden === true && plan.default === undefined) {
      issues.push({
        path: ["params", name],
        message: `${where} requires parameter '${name}', which is hidden without a default`,
      });
    }
  }
  return issues;
}

/**
 * Issues of one tool: its routes' own issues, no operation twice, route parameters declared, hidden
 * required parameters with defaults, every route reachable by dispatch, example keys visible.
 */
export function toolIssues(tool: ToolPlan): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const seen = new Set<string>();
  tool.routes.forEach((route, index) => {
    const where = `tool '${tool.name}': route '${route.operation_id}'`;
    for (const issue of routeIssues(route, where)) {
      issues.push({ path: ["routes", index, ...issue.path], message: issue.message });
    }
    if (seen.has(route.operation_id)) {
      issues.push({
        path: ["routes", index, "operation_id"],
        message: `tool '${tool.name}' lists operation '${route.operation_id}' twice`,
      });
    }
    seen.add(route.operation_id);
    issues.push(...routeParamIssues(tool, route, index));
  });
  for (const [name, param] of Object.entries(tool.params)) {
    if (param.hidden && param.required && param.default === undefined) {
      issues.push({
        path: ["params", name],
        message: `tool '${tool.name}': parameter '${name}' is hidden and required but has no default`,
      });
    }
  }
  const needs = tool.routes.map((route) => requiredVisible(route, tool));
  needs.forEach((later, i) => {
    const j = needs.slice(0, i).findIndex((earlier) => isSubset(earlier, later));
    if (j < 0) return;
    issues.push({
      path: ["routes", i],
      message: `tool '${tool.name}': route '${tool.routes[i].operation_id}' can never be selected: ` +
        `route '${tool.routes[j].operation_id}' (listed earlier) is satisfied by any call that ` +
        "satisfies it; reorder the routes so the more specific one comes first",
    });
  });
  if (tool.example !== null) {
    const bad = Object.keys(tool.example).filter((key) =>
      tool.params[key] === undefined || tool.params[key].hidden
    );
    if (bad.length > 0) {
      issues.push({
        path: ["example"],
        message: `tool '${tool.name}': example uses unknown or hidden parameter(s) ${quoted(bad)}`,
      });
    }
  }
  return issues;
}
