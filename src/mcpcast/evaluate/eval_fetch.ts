/**
 * The upstream an evaluated server talks to. Each request is matched against every tool route (same
 * method; the route's base URL and templated path must match the whole URL path, `{x}` standing for
 * one segment, a trailing `/` allowed), most specific route first (more literal segments, fewer
 * placeholders, longer literal text). It goes to the real API only when live reads are on and every
 * matching route belongs to a read-class tool; otherwise the most specific route answers 200 with a
 * body made from its operation's success response schema, or `{"ok": true, "mock": "<operationId>"}`.
 * A request no route matches is answered 502 (`EVAL_NO_MOCK`) and recorded as `METHOD /path`.
 *
 * The base URL of a route is its own `base_url`, else `MCPCAST_BASE_URL` (read from the same
 * environment the server gets), else the plan's.
 *
 * @module
 */

import { cleanUrlToken } from "../_url_token.ts";
import type { McpcastPlan, RoutePlan, ToolPlan } from "../plan/mod.ts";
import { exampleValue } from "../plan/internal.ts";
import type { EnvLookup, Operation } from "../types.ts";

/** One matchable route. */
interface RouteMatcher {
  tool: ToolPlan;
  route: RoutePlan;
  pattern: RegExp;
  literals: number;
  placeholders: number;
  literalChars: number;
}

/** Options of {@linkcode createEvalFetch}. */
export interface EvalFetchOptions {
  /** Where `MCPCAST_BASE_URL` is read. */
  env: EnvLookup;
  /** The real API's fetch, for live reads. */
  fetch: typeof fetch;
  /** Whether read-only requests may go live. */
  liveReads: boolean;
  /** The spec's operations (success response schemas). */
  operations?: readonly Operation[];
}

/** The evaluation upstream and what it saw. */
export interface EvalFetch {
  /** The fetch handed to the server. */
  fetch: (request: Request) => Promise<Response>;
  /** `METHOD /path` of unmatched requests, each once, in order. */
  unmatched: string[];
  /** Requests sent to the real API. */
  live: number;
  /** Requests answered by a mock. */
  mocked: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function matcherOf(tool: ToolPlan, route: RoutePlan, base: string): RouteMatcher {
  const segments = route.path.split("/").filter((segment) => segment !== "");
  let literals = 0;
  let placeholders = 0;
  let literalChars = 0;
  const parts = route.path.split(/(\{[^}]*\})/).map((piece) => {
    if (/^\{[^}]*\}$/.test(piece)) return "[^/]+";
    literalChars += piece.length;
    return escapeRegExp(piece);
  });
  for (const segment of segments) {
    if (/\{[^}]*\}/.test(segment)) placeholders++;
    else literals++;
  }
  const path = parts.join("").replace(/\/$/, "");
  const pattern = new RegExp(`^${escapeRegExp(base)}${path}/?$`);
  return { tool, route, pattern, literals, placeholders, literalChars };
}

function bySpecificity(a: RouteMatcher, b: RouteMatcher): number {
  return b.literals - a.literals || a.placeholders - b.placeholders || b.literalChars - a.literalChars;
}

/** Every route of `plan`, most specific first. */
function routeMatchers(plan: McpcastPlan, env: EnvLookup): RouteMatcher[] {
  const override = env("MCPCAST_BASE_URL")?.trim();
  const planBase = override ? cleanUrlToken(override) : plan.api.base_url;
  const out: RouteMatcher[] = [];
  for (const tool of plan.tools) {
    for (const route of tool.routes) out.push(matcherOf(tool, route, route.base_url ?? planBase));
  }
  return out.sort(bySpecificity);
}

/** The mock answer of `route`: an example of its success schema, or a marker object. */
function mockBody(route: RoutePlan, operations: ReadonlyMap<string, Operation>): unknown {
  const schema = operations.get(route.operation_id)?.successSchema;
  if (schema !== undefined) {
    try {
      const value = exampleValue(schema, "value");
      if (value !== undefined) return value;
    } catch {
      // an unusual schema: the marker instead
    }
  }
  return { ok: true, mock: route.operation_id };
}

/** A fresh evaluation upstream for `plan`. */
export function createEvalFetch(plan: McpcastPlan, options: EvalFetchOptions): EvalFetch {
  const matchers = routeMatchers(plan, options.env);
  const operations = new Map((options.operations ?? []).map((op) => [op.operationId, op]));
  const state: EvalFetch = {
    unmatched: [],
    live: 0,
    mocked: 0,
    fetch: async (request) => {
      const url = new URL(request.url);
      const target = `${url.origin}${url.pathname}`;
      const method = request.method.toUpperCase();
      const matches = matchers.filter((m) => m.route.method === method && m.pattern.test(target));
      if (matches.length === 0) {
        const entry = `${method} ${url.pathname}`;
        if (!state.unmatched.includes(entry)) state.unmatched.push(entry);
        return Response.json({
          error: { code: "EVAL_NO_MOCK", message: `No tool route matches ${entry}; nothing was called.` },
        }, { status: 502 });
      }
      if (options.liveReads && matches.every((m) => m.tool.risk === "read")) {
        state.live++;
        return await options.fetch(request);
      }
      state.mocked++;
      await request.body?.cancel();
      return Response.json(mockBody(matches[0].route, operations));
    },
  };
  return state;
}
