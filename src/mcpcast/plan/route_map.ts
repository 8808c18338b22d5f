/**
 * Which operations can become tools: the plan-wide credential slot (where the generated server
 * presents its one upstream credential), an operation's wire mapping as a route, and the reason an
 * operation cannot be served ("unsupported by mcpcast: ...").
 *
 * @module
 */

import { routeIssues } from "./invariants.ts";
import { RoutePlanSchema } from "./schema.ts";
import type { RouteParam, RoutePlan } from "./types.ts";
import type { CredentialSlot, Operation, ParamSpec, SecurityScheme } from "../types.ts";
import { cleanUrlToken } from "../_url_token.ts";

/** The slot used when no operation declares a presentable scheme. */
export const AUTHORIZATION_SLOT: Readonly<CredentialSlot> = Object.freeze({
  location: "header",
  name: "Authorization",
});

/** Header names the generated server sets on every call (a required header of these is sent). */
export const HEADERS_SENT_BY_RUNTIME: ReadonlySet<string> = new Set([
  "authorization",
  "content-type",
  "accept",
  "host",
  "content-length",
  "user-agent",
]);

/** Parameter locations a tool exposes to the agent (slice C: header and cookie too). */
const EXPOSED = new Set(["path", "query", "header", "cookie", "body", "raw_body"]);

function slotKey(slot: CredentialSlot): string {
  return slot.location === "header" ? `header ${slot.name.toLowerCase()}` : `query ${slot.name}`;
}

/** Whether two slots are the same (header names compared case-insensitively, query names exactly). */
export function sameSlot(a: CredentialSlot, b: CredentialSlot): boolean {
  return slotKey(a) === slotKey(b);
}

/** `header 'X-API-Key'` or `query parameter 'api_key'`, for messages. */
export function describeSlot(slot: CredentialSlot): string {
  return `${slot.location === "header" ? "header" : "query parameter"} '${slot.name}'`;
}

/**
 * The slot the plan presents its credential in: the one most operations need (ties go to the first
 * seen), else the Authorization header.
 *
 * @example
 * ```ts ignore
 * credentialSlot(spec.operations); // { location: "header", name: "X-API-Key" }
 * ```
 */
export function credentialSlot(operations: readonly Operation[]): CredentialSlot {
  const counts = new Map<string, { slot: CredentialSlot; count: number }>();
  for (const op of operations) {
    if (op.credentialSlot === undefined) continue;
    const key = slotKey(op.credentialSlot);
    const entry = counts.get(key) ?? { slot: op.credentialSlot, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  let best: { slot: CredentialSlot; count: number } | undefined;
  for (const entry of counts.values()) if (best === undefined || entry.count > best.count) best = entry;
  return best === undefined
    ? { ...AUTHORIZATION_SLOT }
    : { location: best.slot.location, name: best.slot.name };
}

/** A security scheme in words: `security scheme 'cookieAuth' (an API key in cookie 'sid')`. */
export function describeScheme(scheme: SecurityScheme): string {
  let what: string;
  if (scheme.type === "apiKey") {
    what = `an API key in ${scheme.in ?? "an unknown place"} '${scheme.paramName ?? ""}'`;
  } else if (scheme.type === "http") what = `HTTP ${scheme.scheme ?? "unknown"} authentication`;
  else if (scheme.type === "basic") what = "HTTP basic authentication";
  else if (scheme.type === "oauth2") what = "OAuth 2";
  else if (scheme.type === "openIdConnect") what = "OpenID Connect";
  else what = "mutual TLS (a client certificate)";
  return `security scheme '${scheme.id}' (${what})`;
}

/**
 * The base URL a route must carry: the operation's own server when it differs from the document's
 * and from the plan's `baseUrl`; undefined when the plan's base serves it.
 */
export function routeBaseUrl(op: Operation, baseUrl: string): string | undefined {
  const own = cleanUrlToken(op.baseUrl);
  if (own === "" || own === cleanUrlToken(op.docBaseUrl)) return undefined;
  return own === cleanUrlToken(baseUrl) ? undefined : own;
}

/**
 * The parameters of `op` a tool exposes: all of them, except a query parameter or header that is the
 * plan's credential or the operation's own credential slot, and the headers the runtime sets itself
 * ({@linkcode HEADERS_SENT_BY_RUNTIME}); the server adds those.
 */
export function exposedParams(op: Operation, credential: CredentialSlot): ParamSpec[] {
  const slots = op.credentialSlot === undefined ? [credential] : [credential, op.credentialSlot];
  return op.params.filter((param) =>
    EXPOSED.has(param.location) &&
    !(param.location === "header" && HEADERS_SENT_BY_RUNTIME.has(param.wireName.toLowerCase())) &&
    !slots.some((slot) =>
      (param.location === "query" || param.location === "header") &&
      sameSlot(slot, { location: param.location, name: param.wireName })
    )
  );
}

/** slice C: the serialization fields of a parameter, in plan form (only those the spec sets). */
function wireStyle(param: ParamSpec): Partial<RouteParam> {
  const out: Partial<RouteParam> = {};
  if (param.style !== undefined) out.style = param.style;
  if (param.explode !== undefined) out.explode = param.explode;
  if (param.allowReserved === true) out.allow_reserved = true;
  if (param.contentType !== undefined) out.content_type = param.contentType;
  return out;
}

/** The wire mapping of `op` as a route (not validated). */
export function routeFromOperation(
  op: Operation,
  options: { baseUrl: string; credential: CredentialSlot },
): RoutePlan {
  const params: Record<string, RouteParam> = Object.fromEntries(
    exposedParams(op, options.credential).map((param) => [param.name, {
      location: param.location as RouteParam["location"],
      required: param.required,
      ...(param.wireName !== param.name ? { wire_name: param.wireName } : {}),
      ...wireStyle(param), // slice C: serialization
    }]),
  );
  const base = routeBaseUrl(op, options.baseUrl);
  return {
    operation_id: op.operationId,
    method: op.method,
    path: op.path,
    params,
    body_encoding: op.bodyEncoding,
    ...(base !== undefined ? { base_url: base } : {}),
  };
}

/** The route of `op`, validated by {@linkcode RoutePlanSchema}, or why it is not a valid route. */
function checkedRoute(
  op: Operation,
  options: { baseUrl: string; credential: CredentialSlot },
): { route: RoutePlan } | { problem: string } {
  const route = routeFromOperation(op, options);
  const parsed = RoutePlanSchema.safeParse(route);
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? "invalid route" };
  const issue = routeIssues(parsed.data, `route '${route.operation_id}'`)[0];
  return issue === undefined ? { route: parsed.data } : { problem: issue.message };
}

/** An operation as a tool sees it: its validated route, or why it cannot become a tool. */
export type MappedOperation = { route: RoutePlan } | { reason: string };

/**
 * `op` mapped for a tool: its route (validated, so a tool built on it need not check it again), or the
 * drop reason ("unsupported by mcpcast: ...") when it cannot become a tool: a body the parser could
 * not map, a wire mapping that is not a valid route, or a security scheme the server cannot present or that needs another slot than the
 * plan's `credential`.
 */
export function mapOperation(
  op: Operation,
  options: { baseUrl: string; credential: CredentialSlot },
): MappedOperation {
  const reason = (why: string) => ({ reason: `unsupported by mcpcast: ${why}` });
  if (op.unsupportedBody !== undefined && op.unsupportedBody !== "") return reason(op.unsupportedBody);
  const checked = checkedRoute(op, options);
  if ("problem" in checked) return reason(checked.problem);
  const why = sendingProblem(op, options.credential);
  return why === undefined ? checked : reason(why);
}

/**
 * A credential `op` needs that the generated server cannot send, if any (header and cookie
 * parameters are tool parameters, or headers the runtime sets).
 */
function sendingProblem(op: Operation, credential: CredentialSlot): string | undefined {
  const scheme = op.securityScheme;
  if (scheme === undefined) return undefined;
  if (op.credentialSlot === undefined) {
    return `requires ${describeScheme(scheme)}, which the generated server cannot present`;
  }
  if (!sameSlot(op.credentialSlot, credential)) {
    return `requires ${describeScheme(scheme)}, but this server presents its credential in ${
      describeSlot(credential)
    }`;
  }
  return undefined;
}
