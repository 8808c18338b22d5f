/**
 * The upstream credential of one call, per auth mode, and its redaction from upstream answers.
 *
 * | Auth mode | Credential | Slot |
 * |---|---|---|
 * | `passthrough` | the caller's `authorization` header (a Bearer token) | always the Authorization header |
 * | `env-token` | `MCPCAST_UPSTREAM_TOKEN`, read on every call | the plan's slot |
 * | `api-key` | the calling tenant's: `client.extra.upstream_credential` when an auth hook set one, else `MCPCAST_UPSTREAM_TOKENS[tenant]`, read on every call | the plan's slot |
 * | `none` | none | — |
 *
 * A credential must be printable ASCII (after trimming) without `<` or `>` (a placeholder left in an
 * example file); messages name the variable or header, never the value.
 *
 * @module
 */

import { ToolError } from "../../tool_error.ts";
import type { ApiPlan } from "../plan/mod.ts";
import type { EnvLookup } from "../types.ts";

/** The credential of one call and where it travels. */
export interface Credential {
  /** The value sent. */
  value: string;
  /** Header or query parameter. */
  location: "header" | "query";
  /** Header or query parameter name. */
  name: string;
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

function checked(value: string, what: string): string {
  const trimmed = value.trim();
  if (!PRINTABLE.test(trimmed) || /[<>]/.test(trimmed)) {
    throw new ToolError(
      "UPSTREAM_AUTH_INVALID",
      `${what} is not a usable credential: only printable ASCII, and no <placeholder> left in`,
      { suggestion: `Set ${what} to the real credential` },
    );
  }
  return trimmed;
}

function passthrough(source: CredentialSource): string {
  const header = source.meta?.authorization;
  if (header === undefined || header.trim() === "") {
    throw missing(
      "This server forwards the caller's Authorization header to the upstream API, and this call carried none",
      "Over HTTP, send 'Authorization: Bearer <token>' with each request; stdio carries no headers, so " +
        "for a local server regenerate with --auth env-token and set MCPCAST_UPSTREAM_TOKEN",
    );
  }
  if (!/^bearer\s+\S/i.test(header.trim())) {
    throw missing(
      "The Authorization header must carry a Bearer token to be forwarded upstream",
      "Send 'Authorization: Bearer <token>'",
    );
  }
  return checked(header, "the Authorization header");
}

function envToken(api: ApiPlan, env: EnvLookup): string {
  const value = env("MCPCAST_UPSTREAM_TOKEN");
  if (value === undefined || value.trim() === "") {
    const example =
      api.credential_location === "header" && api.credential_name.toLowerCase() === "authorization"
        ? '"Bearer <token>"'
        : "the API key";
    throw missing(
      "MCPCAST_UPSTREAM_TOKEN is not set",
      `Set MCPCAST_UPSTREAM_TOKEN to what the upstream expects in ${describeSlot(api)}, e.g. ${example}`,
    );
  }
  return checked(value, "MCPCAST_UPSTREAM_TOKEN");
}

function tenantTokens(env: EnvLookup): Record<string, unknown> {
  const raw = env("MCPCAST_UPSTREAM_TOKENS");
  if (raw === undefined || raw.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ToolError(
      "UPSTREAM_AUTH_INVALID",
      "MCPCAST_UPSTREAM_TOKENS must be a JSON object mapping tenant id to upstream credential",
    );
  }
  return parsed as Record<string, unknown>;
}

function tenantCredential(source: CredentialSource, env: EnvLookup): string {
  const tenant = source.client?.tenantId;
  if (tenant === undefined || tenant === "") {
    throw missing(
      "The caller has no tenant, so no upstream credential applies",
      "Use a client key with a tenant_id",
    );
  }
  const own = source.client?.extra?.upstream_credential;
  if (typeof own === "string" && own.trim() !== "") {
    return checked(own, `the upstream credential of tenant '${tenant}'`);
  }
  const tokens = tenantTokens(env);
  const value = Object.hasOwn(tokens, tenant) ? tokens[tenant] : undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw missing(
      `No upstream credential is configured for tenant '${tenant}'`,
      `Add "${tenant}" to MCPCAST_UPSTREAM_TOKENS`,
    );
  }
  return checked(value, `MCPCAST_UPSTREAM_TOKENS["${tenant}"]`);
}

/** `header 'X-API-Key'` or `query parameter 'api_key'`. */
function describeSlot(api: ApiPlan): string {
  return `${api.credential_location === "header" ? "header" : "query parameter"} '${api.credential_name}'`;
}

/**
 * The credential for one call under `api.auth`, or undefined for `none`.
 *
 * @throws {ToolError} `UPSTREAM_AUTH_MISSING` when the mode's credential is absent,
 * `UPSTREAM_AUTH_INVALID` when it is malformed.
 */
export function upstreamCredential(
  api: ApiPlan,
  source: CredentialSource,
  env: EnvLookup,
): Credential | undefined {
  switch (api.auth) {
    case "none":
      return undefined;
    case "passthrough":
      return { value: passthrough(source), location: "header", name: "Authorization" };
    case "env-token":
      return { value: envToken(api, env), location: api.credential_location, name: api.credential_name };
    case "api-key":
      return {
        value: tenantCredential(source, env),
        location: api.credential_location,
        name: api.credential_name,
      };
  }
}

/** The forms of `value` an upstream may echo: itself, the token after a scheme word, URL-encoded. */
function secretForms(value: string): string[] {
  const forms = new Set([value]);
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
export function redactCredential(text: string, credential: Credential | undefined): string {
  if (credential === undefined) return text;
  let out = text;
  for (const form of secretForms(credential.value)) out = out.replaceAll(form, REDACTED);
  return out;
}
