/**
 * The cross-field invariants of the API section and of the whole plan (tool names, operation
 * ownership, drops, risk floors, the safety profile), checked after the fields are valid. Messages
 * name the tool or operation at fault and never repeat a value from the plan.
 *
 * @module
 */

import { riskFloor } from "./classify.ts";
import type { PlanIssue } from "./invariants.ts";
import type { ApiPlan, McpcastPlan } from "./types.ts";
import { needsApproval, profileAllows } from "./safety_profile.ts";
import { RISK_SEVERITY } from "../types.ts";
import { firstTokenBreak } from "../_url_token.ts";
import { META_TOOL_NAMES } from "./tool_mode.ts";

/**
 * Issues of the API section: `pending` approval needs `api-key` auth; the credential slot is a
 * usable header (RFC 7230 token, not one the HTTP client owns) or query name; `passthrough` can only
 * relay the Authorization header.
 */
export function apiIssues(api: ApiPlan): PlanIssue[] {
  const issues: PlanIssue[] = [];
  if (api.approval === "pending" && api.auth !== "api-key") {
    issues.push({
      path: ["approval"],
      message: "approval 'pending' (independent four-eyes review) needs identified callers so nobody " +
        "approves their own request: use auth 'api-key', or approval 'elicitation'",
    });
  }
  const name = api.credential_name;
  if (api.credential_location === "header") {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
      issues.push({
        path: ["credential_name"],
        message: "credential_name is not a valid HTTP header name (RFC 7230 token characters only)",
      });
    } else if (RESERVED_CREDENTIAL_HEADERS.has(name.toLowerCase())) {
      issues.push({
        path: ["credential_name"],
        message: `credential_name: the ${name.toLowerCase()} header belongs to the HTTP client and ` +
          "cannot carry the upstream credential",
      });
    }
  } else if (name === "" || firstTokenBreak(name) !== undefined) {
    issues.push({
      path: ["credential_name"],
      message: "credential_name for a query credential must be a non-empty parameter name without " +
        "whitespace or control characters",
    });
  }
  if (api.auth === "passthrough" && !isAuthorizationHeader(api)) {
    issues.push({
      path: ["auth"],
      message: "auth 'passthrough' forwards only the caller's Authorization header, but the credential " +
        "goes elsewhere (credential_location/credential_name): use auth 'env-token' or 'api-key'",
    });
  }
  return issues;
}

/** Headers the HTTP client owns; the upstream credential may not travel in them. */
export const RESERVED_CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  "cookie",
  "host",
  "content-length",
  "transfer-encoding",
]);

/** Whether the plan presents its credential in the Authorization header (what passthrough relays). */
export function isAuthorizationHeader(
  api: Pick<ApiPlan, "credential_location" | "credential_name">,
): boolean {
  return api.credential_location === "header" && api.credential_name.toLowerCase() === "authorization";
}

/**
 * Issues of the whole plan: unique tool names, each operation in at most one tool and never both
 * kept and dropped, dropped at most once, every tool at or above its routes' risk floors, allowed
 * by the profile, and gated when the profile says so; in meta-tool mode no tool takes a meta tool's name.
 */
export function planIssues(plan: McpcastPlan): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const names = new Map<string, number>();
  const kept = new Map<string, string>();
  plan.tools.forEach((tool, i) => {
    const first = names.get(tool.name);
    if (first !== undefined) {
      issues.push({
        path: ["tools", i, "name"],
        message: `duplicate tool name '${tool.name}' (see tools[${first}])`,
      });
    } else names.set(tool.name, i);
    if (plan.api.tool_mode === "meta" && (META_TOOL_NAMES as readonly string[]).includes(tool.name)) {
      issues.push({
        path: ["tools", i, "name"],
        message: `tool name '${tool.name}' is taken by the meta-tool mode's own tools ` +
          `(${META_TOOL_NAMES.join(", ")}): rename the tool, or use api.tool_mode 'direct'`,
      });
    }
    tool.routes.forEach((route, r) => {
      const owner = kept.get(route.operation_id);
      if (owner !== undefined && owner !== tool.name) {
        issues.push({
          path: ["tools", i, "routes", r, "operation_id"],
          message:
            `operation '${route.operation_id}' is used by both tool '${owner}' and tool '${tool.name}'`,
        });
      } else kept.set(route.operation_id, tool.name);
      for (const id of new Set(route.security?.flat() ?? [])) {
        if (!Object.hasOwn(plan.api.security_schemes ?? {}, id)) {
          issues.push({
            path: ["tools", i, "routes", r, "security"],
            message:
              `route '${route.operation_id}' names security scheme '${id}', which api.security_schemes lacks`,
          });
        }
      }
      const floor = riskFloor(route.operation_id, route.method, route.path);
      if (RISK_SEVERITY[tool.risk] < RISK_SEVERITY[floor]) {
        issues.push({
          path: ["tools", i, "risk"],
          message:
            `tool '${tool.name}' is declared below the risk floor of its route '${route.operation_id}' ` +
            `(${route.method} ${route.path} is at least ${floor}): a plan may raise a tool's risk, never lower it`,
        });
      }
    });
    if (!profileAllows(plan.profile, tool.risk)) {
      issues.push({
        path: ["tools", i, "risk"],
        message: `tool '${tool.name}' is ${tool.risk} but profile '${plan.profile}' does not allow it`,
      });
    } else if (needsApproval(plan.profile, tool.risk) && !tool.requires_approval) {
      issues.push({
        path: ["tools", i, "requires_approval"],
        message:
          `tool '${tool.name}' is ${tool.risk}: profile '${plan.profile}' requires requires_approval: true`,
      });
    }
  });
  const dropped = new Set<string>();
  plan.dropped.forEach((op, k) => {
    const owner = kept.get(op.operation_id);
    if (owner !== undefined) {
      issues.push({
        path: ["dropped", k, "operation_id"],
        message: `operation '${op.operation_id}' is both kept (tool '${owner}') and dropped`,
      });
    }
    if (dropped.has(op.operation_id)) {
      issues.push({
        path: ["dropped", k, "operation_id"],
        message: `operation '${op.operation_id}' is dropped twice`,
      });
    }
    dropped.add(op.operation_id);
  });
  return issues;
}
