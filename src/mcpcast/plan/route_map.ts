/**
 * Which operations can become tools: the plan-wide credential slot (where the generated server
 * presents its one upstream credential), an operation's wire mapping as a route, and the reason an
 * operation cannot be served ("unsupported by mcpcast: ...").
 *
 * @module
 */

import { routeIssues } from "./invariants.ts";
import { RoutePlanSchema } from "./schema.ts";
import type { RouteParam, RoutePlan, SchemePlan } from "./types.ts";
import type { CredentialSlot, Operation, ParamSpec, SecurityScheme } from "../types.ts";
import { cleanUrlToken } from "../_url_token.ts";

/** What mapping an operation needs to know about the plan: its base URL, credential and schemes. */
export interface RouteContext {
  /** The plan's base URL. */
  baseUrl: string;
  /** The plan's one credential slot (for routes without `security`). */
  credential: CredentialSlot;
  /** The spec's security schemes by id. @default {} */
  schemes?: Readonly<Record<string, SecurityScheme>>;
  /** Whether any operation of the spec declares a security requirement. @default false */
  declared?: boolean;
}

const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** Headers an API key may not travel in (the HTTP client owns them). */
const CLIENT_HEADERS: ReadonlySet<string> = new Set([
  "cookie",
  "host",
  "content-length",
  "transfer-encoding",
]);

/**
 * How the generated server presents `scheme`: http bearer, OAuth 2 and OpenID Connect as a Bearer
 * token, http basic as Basic, another http scheme by its word, an apiKey in its header, query
 * parameter or cookie; undefined for mutual TLS and anything malformed.
 */
export function schemePlanFor(scheme: SecurityScheme): SchemePlan | undefined {
  const authorization = { in: "header", name: "Authorization" } as const;
  switch (scheme.type) {
    case "apiKey": {
      const name = scheme.paramName;
      if (scheme.in === undefined || name === undefined) return undefined;
      if (scheme.in !== "query" && !TOKEN.test(name)) return undefined;
      if (scheme.in === "header" && CLIENT_HEADERS.has(name.toLowerCase())) return undefined;
      return { type: "api_key", in: scheme.in, name };
    }
    case "oauth2":
    case "openIdConnect":
      return { type: "bearer", ...authorization };
    case "basic":
      return { type: "basic", ...authorization };
    case "http":
      if (scheme.scheme === "bearer") return { type: "bearer", ...authorization };
      if (scheme.scheme === "basic") return { type: "basic", ...authorization };
      if (scheme.scheme !== undefined && TOKEN.test(scheme.scheme)) {
        return { type: "http", ...authorization, http_scheme: scheme.scheme };
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * The requirements of `op` the server can meet (every scheme of one known and presentable), or why
 * none can be met. Undefined `security` when the spec declares no requirement anywhere (the plan's
 * one credential then goes everywhere); `[]` when this operation needs none.
 */
export function routeSecurity(
  op: Operation,
  context: RouteContext,
): { security?: string[][] } | { problem: string } {
  const named = op.securityScheme;
  const requirements = op.security ?? (named !== undefined ? [[named.id]] : undefined);
  if (requirements === undefined) return context.declared ? { security: [] } : {};
  const presentable = (id: string) => {
    const scheme = schemeOf(id, op, context);
    return scheme !== undefined && schemePlanFor(scheme) !== undefined;
  };
  const usable = requirements.filter((requirement) => requirement.every(presentable));
  if (usable.length > 0 || requirements.length === 0) return { security: usable };
  return {
    problem: named !== undefined
      ? `requires ${describeScheme(named)}, which the generated server cannot present`
      : `requires security scheme '${requirements.flat()[0] ?? ""}', which the spec does not define`,
  };
}

/** The scheme `id` of the spec, or the operation's own effective one. */
export function schemeOf(id: string, op: Operation, context: RouteContext): SecurityScheme | undefined {
  const schemes = context.schemes ?? {};
  if (Object.hasOwn(schemes, id)) return schemes[id];
  return op.securityScheme?.id === id ? op.securityScheme : undefined;
}

/** The schemes the usable requirements of `op` name, presented. */
function schemesOfRoute(op: Operation, context: RouteContext): SchemePlan[] {
  const found = routeSecurity(op, context);
  if (!("security" in found) || found.security === undefined) return [];
  return [...new Set(found.security.flat())].map((id) => schemePlanFor(schemeOf(id, op, context)!)!);
}

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
/**
 * The parameters of `op` a tool exposes: all of them, except the headers the runtime sets itself
 * ({@linkcode HEADERS_SENT_BY_RUNTIME}) and a query parameter, header or cookie that carries a credential
 * (the plan's one, or an API key of one of the operation's security schemes): the server adds those.
 */
export function exposedParams(op: Operation, context: Omit<RouteContext, "baseUrl">): ParamSpec[] {
  const { credential } = context;
  const slots = schemesOfRoute(op, { baseUrl: "", ...context }).map((scheme) => ({
    location: scheme.in,
    name: scheme.name,
  }));
  slots.push({ location: credential.location, name: credential.name });
  const carriesCredential = (param: ParamSpec) =>
    slots.some((slot) =>
      slot.location === param.location &&
      (param.location === "header"
        ? slot.name.toLowerCase() === param.wireName.toLowerCase()
        : slot.name === param.wireName)
    );
  return op.params.filter((param) =>
    EXPOSED.has(param.location) &&
    !(param.location === "header" && HEADERS_SENT_BY_RUNTIME.has(param.wireName.toLowerCase())) &&
    !carriesCredential(param)
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
export function routeFromOperation(op: Operation, options: RouteContext): RoutePlan {
  const params: Record<string, RouteParam> = Object.fromEntries(
    exposedParams(op, options).map((param) => [param.name, {
      location: param.location as RouteParam["location"],
      required: param.required,
      ...(param.wireName !== param.name ? { wire_name: param.wireName } : {}),
      ...wireStyle(param), // slice C: serialization
    }]),
  );
  const base = routeBaseUrl(op, options.baseUrl);
  const security = routeSecurity(op, options);
  return {
    operation_id: op.operationId,
    method: op.method,
    path: op.path,
    params,
    body_encoding: op.bodyEncoding,
    ...(base !== undefined ? { base_url: base } : {}),
    ...("security" in security && security.security !== undefined ? { security: security.security } : {}),
  };
}

/** The route of `op`, validated by {@linkcode RoutePlanSchema}, or why it is not a valid route. */
function checkedRoute(
  op: Operation,
  options: RouteContext,
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
 * not map, a wire mapping that is not a valid route, or security requirements none of which the server can
 * present.
 */
export function mapOperation(op: Operation, options: RouteContext): MappedOperation {
  const reason = (why: string) => ({ reason: `unsupported by mcpcast: ${why}` });
  if (op.unsupportedBody !== undefined && op.unsupportedBody !== "") return reason(op.unsupportedBody);
  const security = routeSecurity(op, options);
  if ("problem" in security) return reason(security.problem);
  const checked = checkedRoute(op, options);
  if ("problem" in checked) return reason(checked.problem);
  return checked;
}
