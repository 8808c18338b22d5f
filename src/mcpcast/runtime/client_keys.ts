/**
 * The client keys of an `api-key` server: `MCPCAST_CLIENT_KEYS`, a JSON object mapping each key a
 * client presents in `x-api-key` to `{"client_id", "tenant_id", "roles"}`. Read once when the
 * server is built. Each tenant's upstream credential is separate (`MCPCAST_UPSTREAM_TOKENS`, read on
 * every call), so rotating an upstream credential needs no restart.
 *
 * @module
 */

import type { ApiKeyClient } from "../../mcp/mod.ts";
import { McpcastError } from "../errors.ts";
import type { EnvLookup } from "../types.ts";

/** Keys shown in the generated README and `.env.example`; a server refuses to start with them. */
export const DOCUMENTATION_KEYS: readonly string[] = ["sk-acme", "sk-reviewer"];

const SHAPE = 'MCPCAST_CLIENT_KEYS must be a JSON object: {"<client key>": {"client_id": "...", ' +
  '"tenant_id": "...", "roles": ["approver"]}}';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function clientOf(value: unknown, index: number): ApiKeyClient {
  const where = `MCPCAST_CLIENT_KEYS entry ${index + 1}`;
  if (!isRecord(value)) throw new McpcastError(`${where} must be an object; ${SHAPE}`);
  const unknown = Object.keys(value).filter((key) => !["client_id", "tenant_id", "roles"].includes(key));
  if (unknown.length > 0) throw new McpcastError(`${where} has unknown fields: ${unknown.join(", ")}`);
  const { client_id: clientId, tenant_id: tenantId, roles = [] } = value;
  if (typeof clientId !== "string" || clientId.trim() === "") {
    throw new McpcastError(`${where} needs a non-empty "client_id"`);
  }
  if (typeof tenantId !== "string" || tenantId.trim() === "") {
    throw new McpcastError(`${where} (client '${clientId}') needs a non-empty "tenant_id"`);
  }
  if (!Array.isArray(roles) || !roles.every((role) => typeof role === "string")) {
    throw new McpcastError(`${where} (client '${clientId}'): "roles" must be a list of strings`);
  }
  return { client_id: clientId, tenant_id: tenantId, roles: [...roles] };
}

/**
 * The client keys in `MCPCAST_CLIENT_KEYS`.
 *
 * @throws {McpcastError} when the variable is unset or empty, not the documented JSON shape, or holds
 * a documentation key (`sk-acme`, `sk-reviewer`) or a `<placeholder>`. Messages name entries by
 * position and client id, never a key.
 *
 * @example
 * ```ts
 * import { readClientKeys } from "./client_keys.ts";
 * const keys = readClientKeys(() => '{"k-7f3a9c2e": {"client_id": "ops", "tenant_id": "acme"}}');
 * // { "k-7f3a9c2e": { client_id: "ops", tenant_id: "acme", roles: [] } }
 * ```
 */
export function readClientKeys(env: EnvLookup): Record<string, ApiKeyClient> {
  const raw = env("MCPCAST_CLIENT_KEYS");
  if (raw === undefined || raw.trim() === "") {
    throw new McpcastError(
      `MCPCAST_CLIENT_KEYS is not set: an api-key server needs its clients' keys; ${SHAPE}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new McpcastError(`MCPCAST_CLIENT_KEYS is not valid JSON; ${SHAPE}`);
  }
  if (!isRecord(parsed)) throw new McpcastError(SHAPE);
  const entries = Object.entries(parsed);
  if (entries.length === 0) throw new McpcastError(`MCPCAST_CLIENT_KEYS has no keys; ${SHAPE}`);
  const keys: Record<string, ApiKeyClient> = {};
  entries.forEach(([key, value], index) => {
    const where = `MCPCAST_CLIENT_KEYS entry ${index + 1}`;
    if (key.trim() === "") throw new McpcastError(`${where} has an empty key`);
    if (DOCUMENTATION_KEYS.includes(key.trim()) || /[<>]/.test(key)) {
      throw new McpcastError(
        `${where} is a documentation example or a placeholder: choose a real, secret key`,
      );
    }
    Object.defineProperty(keys, key, { value: clientOf(value, index), enumerable: true });
  });
  return keys;
}
