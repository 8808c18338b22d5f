/**
 * The upstream credentials of one call, per auth mode and the route's security requirements, and
 * their redaction from upstream answers.
 *
 * A route with `security` is served by its first requirement whose every scheme has a credential
 * (AND within a requirement, OR between them); `security: []` sends nothing; a route without
 * `security` sends the plan's one credential in `credential_location`/`credential_name`.
 *
 * | Auth mode | Where a scheme's credential comes from |
 * |---|---|
 * | `passthrough` | the caller's `Authorization` header (when its scheme word is the scheme's: `Bearer`, `Basic`, `token`, ...), or for an API key in a header, the caller's header of that name |
 * | `env-token` | `MCPCAST_UPSTREAM_TOKEN_<SCHEME ID>`, else `MCPCAST_UPSTREAM_TOKEN` for the plan's own slot; read on every call |
 * | `api-key` | the tenant's credential (`client.extra.upstream_credential` when an auth hook set one, else `MCPCAST_UPSTREAM_TOKENS[tenant]`): a string for the plan's own slot, or an object by scheme id |
 * | `none` | nothing is ever sent |
 *
 * Values are shaped by the scheme (see `_scheme_value.ts`): a bare token gets `Bearer `, `user:password`
 * becomes `Basic <base64>`, an API key goes as it is. A credential must be printable ASCII (after
 * trimming) without `<` or `>` (a placeholder left in an example file); messages name the variable or
 * header, never the value.
 *
 * @module
 */

import { ToolError } from "../../tool_error.ts";
import type { ApiPlan, RoutePlan, SchemePlan } from "../plan/mod.ts";
import type { EnvLookup } from "../types.ts";
import { inOwnSlot, type Lookup, lookupFor } from "./_credential_lookup.ts";
import {
  plainAuthorization,
  schemeExample,
  schemeHint,
  schemeValue,
  schemeVariable,
} from "./_scheme_value.ts";

/** One credential of a call and where it travels. */
export interface Credential {
  /** The value sent. */
  value: string;
  /** Header, query parameter or cookie. */
  location: "header" | "query" | "cookie";
  /** Header, query parameter or cookie name. */
  name: string;
  /** The configured value when the scheme reshaped it (basic: `user:password`); redacted too. */
  raw?: string;
}

/** What the credential lookup reads from the call. */
export interface CredentialSource {
  /** Lower-cased headers of the carrying HTTP request. */
  readonly meta?: Readonly<Record<string, string>>;
  /** The authenticated caller (api-key mode). */
  readonly client?: { readonly tenantId?: string; readonly extra?: Record<string, unknown> };
}

const PRINTABLE = /^[\x20-\x7E]+$/;
const REDACTED = "[redacted]";
/** Shortest value redacted from upstream answers (shorter ones would blank out ordinary words). */
const MIN_REDACT_LENGTH = 8;

function missing(message: string, suggestion: string): ToolError {
  return new ToolError("UPSTREAM_AUTH_MISSING", message, { suggestion });
}

function invalid(what: string, why: string): ToolError {
  return new ToolError("UPSTREAM_AUTH_INVALID", `${what} ${why}`, {
    suggestion: `Set ${what} to the real credential`,
  });
}

function checked(value: string, what: string): string {
  const trimmed = value.trim();
  if (!PRINTABLE.test(trimmed) || /[<>]/.test(trimmed)) {
    throw invalid(what, "is not a usable credential: only printable ASCII, and no <placeholder> left in");
  }
  return trimmed;
}

/** The plan's one credential, for a route without `security`. */
function plainCredential(api: ApiPlan, lookup: Lookup): Credential {
  const found = lookup.find(undefined, undefined);
  if (found === undefined) {
    if (api.auth === "passthrough") {
      throw missing(
        "This server forwards the caller's Authorization header to the upstream API, and this call carried none",
        "Over HTTP, send 'Authorization: Bearer <token>' with each request; stdio carries no headers, so " +
          "for a local server regenerate with --auth env-token and set MCPCAST_UPSTREAM_TOKEN",
      );
    }
    const where = lookup.where(undefined, undefined);
    const suggestion = api.auth === "api-key"
      ? `Add the tenant to MCPCAST_UPSTREAM_TOKENS`
      : `Set ${where} to what the upstream expects in ${describeSlot(api)}`;
    throw missing(`${where} is not set`, suggestion);
  }
  const value = checked(found.value, found.what);
  const authorization = api.auth === "passthrough" ||
    (api.credential_location === "header" && api.credential_name.toLowerCase() === "authorization");
  const sent = authorization ? plainAuthorization(value) : value;
  const name = api.auth === "passthrough" ? "Authorization" : api.credential_name;
  const location = api.auth === "passthrough" ? "header" : api.credential_location;
  return { value: sent, location, name, ...(sent !== value ? { raw: value } : {}) };
}

/** The credentials of one requirement, or undefined when one of its schemes has none. */
function requirementCredentials(
  api: ApiPlan,
  requirement: readonly string[],
  lookup: Lookup,
): Credential[] | undefined {
  const out: Credential[] = [];
  for (const id of requirement) {
    const scheme = api.security_schemes !== undefined && Object.hasOwn(api.security_schemes, id)
      ? api.security_schemes[id]
      : undefined;
    if (scheme === undefined) return undefined;
    const found = lookup.find(id, scheme);
    if (found === undefined) return undefined;
    const value = checked(found.value, found.what);
    const shaped = schemeValue(scheme, value);
    if ("problem" in shaped) {
      if (found.explicit) throw invalid(found.what, shaped.problem);
      return undefined;
    }
    out.push({
      value: shaped.value,
      location: scheme.in,
      name: scheme.name,
      ...(shaped.value !== value ? { raw: value } : {}),
    });
  }
  return out;
}

/** Why no requirement of `security` could be met, naming where each credential would come from. */
function unmet(api: ApiPlan, security: readonly string[][], lookup: Lookup): ToolError {
  const schemes = api.security_schemes ?? {};
  const scheme = (id: string) => Object.hasOwn(schemes, id) ? schemes[id] : undefined;
  const needs = security.map((requirement) =>
    requirement.map((id) => `${lookup.where(id, scheme(id))} (scheme '${id}')`).join(" and ")
  );
  const first = security[0]?.[0];
  const hint = first !== undefined && scheme(first) !== undefined
    ? `; it takes ${schemeHint(scheme(first)!)}`
    : "";
  return missing(
    `No credential for this operation is configured: it needs ${needs.join(", or ")}`,
    `Set ${lookup.where(first, first === undefined ? undefined : scheme(first))}${hint}`,
  );
}

/** `header 'X-API-Key'` or `query parameter 'api_key'`. */
function describeSlot(api: ApiPlan): string {
  return `${api.credential_location === "header" ? "header" : "query parameter"} '${api.credential_name}'`;
}

/** Options of {@linkcode upstreamCredentials}. */
export interface CredentialOptions {
  /** Where variables are read from. */
  env: EnvLookup;
  /** The route called (its `security`); absent: the plan's one credential. */
  route?: Pick<RoutePlan, "security">;
}

/**
 * The credentials for one call of `route` under `api.auth` (none for `none`, for `security: []`, or
 * for an empty requirement).
 *
 * @throws {ToolError} `UPSTREAM_AUTH_MISSING` when no requirement's credentials are all configured,
 * `UPSTREAM_AUTH_INVALID` when one is malformed.
 */
export function upstreamCredentials(
  api: ApiPlan,
  source: CredentialSource,
  options: CredentialOptions,
): Credential[] {
  if (api.auth === "none") return [];
  const lookup = lookupFor(api, source, options.env);
  const security = options.route?.security;
  if (security === undefined) return [plainCredential(api, lookup)];
  for (const requirement of security) {
    const found = requirementCredentials(api, requirement, lookup);
    if (found !== undefined) return found;
  }
  if (security.length === 0) return [];
  throw unmet(api, security, lookup);
}

/**
 * The plan's one credential under `api.auth` (a route without `security`), or undefined for `none`.
 *
 * @throws {ToolError} as {@linkcode upstreamCredentials}.
 */
export function upstreamCredential(
  api: ApiPlan,
  source: CredentialSource,
  env: EnvLookup,
): Credential | undefined {
  return upstreamCredentials(api, source, { env })[0];
}

/** One variable (env-token) or tenant entry (api-key) holding an upstream credential, for READMEs. */
export interface CredentialVariable {
  /** `MCPCAST_UPSTREAM_TOKEN` or `MCPCAST_UPSTREAM_TOKEN_<SCHEME ID>`. */
  name: string;
  /** The scheme ids it serves (empty: the plan has none; the plain credential). */
  schemes: string[];
  /** What to put in it, in words (Markdown). */
  hint: string;
  /** A placeholder value: `<token>`, `<user>:<password>`, `<api key>`. */
  example: string;
}

/**
 * The credentials a plan's routes can use, one entry per variable: `MCPCAST_UPSTREAM_TOKEN` for the
 * plan's own slot, then `MCPCAST_UPSTREAM_TOKEN_<ID>` for each scheme elsewhere (in api-key mode the
 * same schemes are keys of a tenant's object in `MCPCAST_UPSTREAM_TOKENS`).
 */
export function credentialVariables(api: ApiPlan): CredentialVariable[] {
  const schemes = Object.entries(api.security_schemes ?? {});
  const first = schemes.find(([, scheme]) => inOwnSlot(api, scheme))?.[1];
  // MCPCAST_UPSTREAM_TOKEN serves the own-slot schemes shaped like the first; the others get their own.
  const shared = (scheme: SchemePlan) =>
    first !== undefined && inOwnSlot(api, scheme) && scheme.type === first.type &&
    scheme.http_scheme === first.http_scheme;
  const own = schemes.filter(([, scheme]) => shared(scheme));
  const plain: SchemePlan = first ?? (api.credential_location === "header" &&
      api.credential_name.toLowerCase() === "authorization"
    ? { type: "bearer", in: "header", name: "Authorization" }
    : { type: "api_key", in: api.credential_location, name: api.credential_name });
  const out: CredentialVariable[] = [];
  if (schemes.length === 0 || own.length > 0) {
    out.push({
      name: "MCPCAST_UPSTREAM_TOKEN",
      schemes: own.map(([id]) => id),
      hint: schemeHint(plain),
      example: schemeExample(plain),
    });
  }
  for (const [id, scheme] of schemes) {
    if (shared(scheme)) continue;
    out.push({
      name: schemeVariable(id),
      schemes: [id],
      hint: schemeHint(scheme),
      example: schemeExample(scheme),
    });
  }
  return out;
}

/** The forms of `value` an upstream may echo: itself, the token after a scheme word, URL-encoded. */
function secretForms(value: string, raw?: string): string[] {
  const forms = new Set([value]);
  if (raw !== undefined) {
    forms.add(raw);
    const password = raw.slice(raw.indexOf(":") + 1);
    if (raw.includes(":")) forms.add(password);
  }
  const bare = /^[A-Za-z][\w.-]*\s+(\S.*)$/.exec(value)?.[1];
  if (bare !== undefined) forms.add(bare);
  for (const form of [...forms]) {
    forms.add(encodeURIComponent(form));
    forms.add(form.replaceAll(" ", "+"));
  }
  return [...forms].filter((form) => form.length >= MIN_REDACT_LENGTH).sort((a, b) => b.length - a.length);
}

/**
 * `text` with every form of the credential replaced by `[redacted]`: the full value, the bare token
 * after its scheme word (`Bearer abc…` → `abc…`) and their URL-encoded forms. Values shorter than
 * 8 characters are left alone.
 *
 * @example
 * ```ts
 * import { redactCredential } from "./credential.ts";
 * redactCredential("bad token tok-12345678", { value: "Bearer tok-12345678", location: "header", name: "Authorization" });
 * // "bad token [redacted]"
 * ```
 */
export function redactCredential(
  text: string,
  credential: Credential | readonly Credential[] | undefined,
): string {
  if (credential === undefined) return text;
  const all: readonly Credential[] = Array.isArray(credential) ? credential : [credential as Credential];
  const forms = all.flatMap((one) => secretForms(one.value, one.raw)).sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of forms) out = out.replaceAll(form, REDACTED);
  return out;
}
