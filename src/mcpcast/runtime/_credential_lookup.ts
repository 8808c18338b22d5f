/**
 * Where each auth mode finds the credential of one security scheme: `MCPCAST_UPSTREAM_TOKEN*`
 * variables (env-token), the calling tenant's entry (api-key), the caller's headers (passthrough).
 *
 * @module
 */

import { ToolError } from "../../tool_error.ts";
import type { ApiPlan, SchemePlan } from "../plan/mod.ts";
import type { EnvLookup } from "../types.ts";
import { schemeVariable } from "./_scheme_value.ts";
import type { CredentialSource } from "./credential.ts";

function missing(message: string, suggestion: string): ToolError {
  return new ToolError("UPSTREAM_AUTH_MISSING", message, { suggestion });
}

/** A configured value, where it came from, and whether it was meant for this scheme alone. */
export interface Found {
  value: string;
  what: string;
  explicit: boolean;
}

/** Finds the credential of scheme `id` (undefined: the plan's one credential) under one auth mode. */
export interface Lookup {
  find(id: string | undefined, scheme: SchemePlan | undefined): Found | undefined;
  /** Where the credential of `id` would come from, for messages. */
  where(id: string | undefined, scheme: SchemePlan | undefined): string;
}

/** Whether `scheme` travels in the plan's own slot (the one the plain credential fills). */
export function inOwnSlot(api: ApiPlan, scheme: SchemePlan | undefined): boolean {
  if (scheme === undefined) return true;
  if (scheme.in !== api.credential_location) return false;
  return scheme.in === "header"
    ? scheme.name.toLowerCase() === api.credential_name.toLowerCase()
    : scheme.name === api.credential_name;
}

function present(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

function envLookup(api: ApiPlan, env: EnvLookup): Lookup {
  return {
    find(id, scheme) {
      const own = id === undefined ? undefined : schemeVariable(id);
      if (own !== undefined && present(env(own))) return { value: env(own)!, what: own, explicit: true };
      const shared = env("MCPCAST_UPSTREAM_TOKEN");
      if (inOwnSlot(api, scheme) && present(shared)) {
        return { value: shared, what: "MCPCAST_UPSTREAM_TOKEN", explicit: id === undefined };
      }
      return undefined;
    },
    where: (id, scheme) =>
      id === undefined
        ? "MCPCAST_UPSTREAM_TOKEN"
        : inOwnSlot(api, scheme)
        ? `${schemeVariable(id)} or MCPCAST_UPSTREAM_TOKEN`
        : schemeVariable(id),
  };
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

/** The calling tenant's credential entry: a string, or an object by scheme id. */
function tenantEntry(source: CredentialSource, env: EnvLookup): { entry: unknown; what: string } {
  const tenant = source.client?.tenantId;
  if (tenant === undefined || tenant === "") {
    throw missing(
      "The caller has no tenant, so no upstream credential applies",
      "Use a client key with a tenant_id",
    );
  }
  const own = source.client?.extra?.upstream_credential;
  if (present(own) || (typeof own === "object" && own !== null)) {
    return { entry: own, what: `the upstream credential of tenant '${tenant}'` };
  }
  const tokens = tenantTokens(env);
  return {
    entry: Object.hasOwn(tokens, tenant) ? tokens[tenant] : undefined,
    what: `MCPCAST_UPSTREAM_TOKENS["${tenant}"]`,
  };
}

function tenantLookup(api: ApiPlan, source: CredentialSource, env: EnvLookup): Lookup {
  let cached: { entry: unknown; what: string } | undefined;
  const tenant = () => cached ??= tenantEntry(source, env);
  return {
    find(id, scheme) {
      const { entry, what } = tenant();
      if (present(entry)) {
        return inOwnSlot(api, scheme) ? { value: entry, what, explicit: id === undefined } : undefined;
      }
      if (id === undefined || typeof entry !== "object" || entry === null || Array.isArray(entry)) {
        return undefined;
      }
      const value = Object.hasOwn(entry, id) ? (entry as Record<string, unknown>)[id] : undefined;
      return present(value) ? { value, what: `${what}["${id}"]`, explicit: true } : undefined;
    },
    where: (id) => id === undefined ? tenant().what : `${tenant().what}["${id}"]`,
  };
}

function passthroughLookup(source: CredentialSource): Lookup {
  const header = (scheme: SchemePlan | undefined) =>
    scheme === undefined || scheme.type !== "api_key" ? "authorization" : scheme.name.toLowerCase();
  return {
    find(_id, scheme) {
      if (scheme?.in === "query" || scheme?.in === "cookie") return undefined;
      const name = header(scheme);
      const value = source.meta?.[name];
      return present(value) ? { value, what: `the ${name} header`, explicit: false } : undefined;
    },
    where: (_id, scheme) =>
      scheme?.in === "query" || scheme?.in === "cookie"
        ? `(${scheme.in} ${scheme.name}: passthrough forwards headers only)`
        : `the caller's ${header(scheme) === "authorization" ? "Authorization" : scheme!.name} header`,
  };
}

export function lookupFor(api: ApiPlan, source: CredentialSource, env: EnvLookup): Lookup {
  if (api.auth === "env-token") return envLookup(api, env);
  if (api.auth === "api-key") return tenantLookup(api, source, env);
  return passthroughLookup(source);
}
