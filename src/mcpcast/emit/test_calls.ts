/**
 * The calls the generated tests make: each read tool and each gated tool whose example (or `{}`)
 * passes the advertised schema, with the request the call must send under the plan's base URLs.
 *
 * @module
 */

import { exampleMismatch, type McpcastPlan, type ToolPlan, withinBounds } from "../plan/mod.ts";
import {
  buildRequestParts,
  callValues,
  cleanSchema,
  selectRoute,
  visibleParams,
} from "../runtime/internal.ts";

/** A call the generated tests make, with the request it must send. */
export interface ExpectedCall {
  /** Tool name. */
  tool: string;
  /** Arguments (the plan's example, or `{}`). */
  args: Record<string, unknown>;
  /** HTTP method expected. */
  method: string;
  /** Expected path and query (`/v2/pet/123?x=1`). */
  target: string;
  /** The spec operation id of the route called. */
  operation: string;
}

/**
 * The arguments a test calls `tool` with: its example, `{}` when nothing is required; none when the
 * example would not pass the advertised schema (the call would stop at validation).
 */
function testArgs(tool: ToolPlan): Record<string, unknown> | undefined {
  const args = tool.example ?? {};
  const visible = visibleParams(tool);
  if (visible.some(([name, param]) => param.required && !Object.hasOwn(args, name))) return undefined;
  for (const [name, value] of Object.entries(args)) {
    const param = tool.params[name];
    if (param === undefined || param.hidden) return undefined;
    const schema = cleanSchema(param.json_schema);
    if (exampleMismatch(value, schema) !== undefined || !withinBounds(value, schema)) return undefined;
  }
  return args;
}

/** The request a call of `tool` with `args` sends (plan base URLs, no override), or undefined if it cannot be made. */
export function expectedCall(
  tool: ToolPlan,
  args: Record<string, unknown>,
  baseUrl: string,
): ExpectedCall | undefined {
  try {
    const values = callValues(tool, args);
    const route = selectRoute(tool, values);
    const { url } = buildRequestParts(route, values, route.base_url ?? baseUrl);
    return {
      tool: tool.name,
      args,
      method: route.method,
      target: `${url.pathname}${url.search}`,
      operation: route.operation_id,
    };
  } catch {
    return undefined;
  }
}

/** The read calls and gated calls the generated tests make. */
export function testCalls(plan: McpcastPlan): { reads: ExpectedCall[]; gated: ExpectedCall[] } {
  const reads: ExpectedCall[] = [];
  const gated: ExpectedCall[] = [];
  for (const tool of plan.tools) {
    const args = testArgs(tool);
    if (args === undefined) continue;
    const call = expectedCall(tool, args, plan.api.base_url);
    if (call === undefined) continue;
    if (tool.requires_approval) gated.push(call);
    else if (tool.risk === "read") reads.push(call);
  }
  return { reads, gated };
}
