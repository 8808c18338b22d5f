/**
 * The cross-field invariants of a route and a tool, checked after their fields are valid (the API
 * and whole-plan ones are in `wide_invariants.ts`). Each check returns issues
 * (a path inside the checked value and a message); messages name the tool, route, parameter or
 * operation at fault and never repeat a value from the plan (defaults, examples, URLs).
 *
 * @module
 */

import type { RoutePlan, ToolPlan } from "./types.ts";

/** One invariant violation: where (relative to the checked value) and what. */
export interface PlanIssue {
  /** Path inside the checked value (`["routes", 0, "params"]`). */
  path: (string | number)[];
  /** What is wrong, naming the tool/route/parameter, never a value. */
  message: string;
}

// These checks run for every route and tool of a plan (thousands for a large API, and again in
// buildPlan), so they are written with plain loops that allocate little when nothing is wrong.

/** The `{placeholder}` names of a path template, in order. */
export function pathPlaceholders(path: string): string[] {
  const names: string[] = [];
  let open = path.indexOf("{");
  while (open !== -1) {
    const close = path.indexOf("}", open + 1);
    if (close === -1) break;
    const name = path.slice(open + 1, close);
    // Like /\{([^{}/]+)\}/: no nested brace or slash inside, and not empty.
    const nested = name.lastIndexOf("{");
    if (nested !== -1) {
      open = open + 1 + nested;
      continue;
    }
    if (name !== "" && !name.includes("/")) names.push(name);
    open = path.indexOf("{", close + 1);
  }
  return names;
}

/** The names a list is written as in messages: `'a', 'b'`. */
function quoted(names: readonly string[]): string {
  return names.map((name) => `'${name}'`).join(", ");
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
  const placeholders = pathPlaceholders(route.path);
  const declared: string[] = [];
  const names: string[] = [];
  let rawBodies = 0;
  let bodies = 0;
  for (const name in route.params) {
    const param = route.params[name];
    const wire = param.wire_name ?? name;
    const other = names.find((earlier) => {
      const before = route.params[earlier];
      return before.location === param.location && (before.wire_name ?? earlier) === wire;
    });
    if (other !== undefined) add(`parameters '${other}' and '${name}' both send ${param.location} '${wire}'`);
    names.push(name);
    if (param.location === "path") {
      if (!declared.includes(wire)) declared.push(wire);
      if (!param.required) add(`path parameter '${name}' must be required`, ["params", name, "required"]);
    }
    if (param.location === "raw_body") rawBodies++;
    if (param.location === "body") bodies++;
  }
  const missing = placeholders.filter((name, i) =>
    !declared.includes(name) && placeholders.indexOf(name) === i
  );
  if (missing.length > 0) {
    add(`path placeholder(s) ${quoted(missing)} have no matching path parameter`, ["path"]);
  }
  const extra = declared.filter((name) => !placeholders.includes(name));
  if (extra.length > 0) add(`path parameter(s) ${quoted(extra)} do not appear in the path`);
  if (rawBodies > 1) add("only one raw_body parameter is allowed");
  if (rawBodies > 0 && bodies > 0) add("a raw_body parameter cannot be combined with body parameters");
  return issues;
}

/** Names of the parameters a route requires that the agent must give (not hidden). */
function requiredVisible(route: RoutePlan, tool: ToolPlan): Set<string> {
  const names = new Set<string>();
  for (const name in route.params) {
    if (route.params[name].required && tool.params[name]?.hidden !== true) names.add(name);
  }
  return names;
}

function isSubset(small: ReadonlySet<string>, big: ReadonlySet<string>): boolean {
  for (const name of small) if (!big.has(name)) return false;
  return true;
}

/** Issues of one route's parameters against the tool's parameters. */
function routeParamIssues(tool: ToolPlan, route: RoutePlan, index: number, issues: PlanIssue[]): void {
  const where = () => `tool '${tool.name}': route '${route.operation_id}'`;
  const unknown: string[] = [];
  for (const name in route.params) if (!(name in tool.params)) unknown.push(name);
  if (unknown.length > 0) {
    issues.push({
      path: ["routes", index, "params"],
      message: `${where()} uses parameter(s) ${quoted(unknown)} that are not declared in params`,
    });
  }
  for (const name in route.params) {
    const plan = tool.params[name];
    if (route.params[name].required && plan?.hidden === true && plan.default === undefined) {
      issues.push({
        path: ["params", name],
        message: `${where()} requires parameter '${name}', which is hidden without a default`,
      });
    }
  }
}

/**
 * Issues of one tool: its routes' own issues, no operation twice, route parameters declared, hidden
 * required parameters with defaults, every route reachable by dispatch, example keys visible.
 */
export function toolIssues(tool: ToolPlan): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const routes = tool.routes;
  for (let index = 0; index < routes.length; index++) {
    const route = routes[index];
    for (const issue of routeIssues(route, `tool '${tool.name}': route '${route.operation_id}'`)) {
      issues.push({ path: ["routes", index, ...issue.path], message: issue.message });
    }
    if (routes.findIndex((other) => other.operation_id === route.operation_id) < index) {
      issues.push({
        path: ["routes", index, "operation_id"],
        message: `tool '${tool.name}' lists operation '${route.operation_id}' twice`,
      });
    }
    routeParamIssues(tool, route, index, issues);
  }
  for (const name in tool.params) {
    const param = tool.params[name];
    if (param.hidden && param.required && param.default === undefined) {
      issues.push({
        path: ["params", name],
        message: `tool '${tool.name}': parameter '${name}' is hidden and required but has no default`,
      });
    }
  }
  // A route is unreachable when an earlier one needs only a subset of its parameters. (One route is
  // always reachable.)
  if (routes.length > 1) {
    const needs = routes.map((route) => requiredVisible(route, tool));
    needs.forEach((later, i) => {
      const j = needs.slice(0, i).findIndex((earlier) => isSubset(earlier, later));
      if (j < 0) return;
      issues.push({
        path: ["routes", i],
        message: `tool '${tool.name}': route '${routes[i].operation_id}' can never be selected: ` +
          `route '${routes[j].operation_id}' (listed earlier) is satisfied by any call that ` +
          "satisfies it; reorder the routes so the more specific one comes first",
      });
    });
  }
  if (tool.example !== null) {
    const bad: string[] = [];
    for (const key in tool.example) {
      if (tool.params[key] === undefined || tool.params[key].hidden) bad.push(key);
    }
    if (bad.length > 0) {
      issues.push({
        path: ["example"],
        message: `tool '${tool.name}': example uses unknown or hidden parameter(s) ${quoted(bad)}`,
      });
    }
  }
  return issues;
}
