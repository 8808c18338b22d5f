/**
 * API-key auth: a header carries a key; each configured key maps to a client (and optionally roles
 * and a tenant).
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { AuthProvider, Identity } from "../types.ts";
import { authError } from "./_jwt_verify.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import { AUTHENTICATE_NOW, authWording, headerName } from "./_options.ts";

/** The rich form of an API key's client. */
export interface ApiKeyClient {
  /** Caller id reported for this key. */
  client_id: string;
  /** Roles granted to this key's caller. @default [] */
  roles?: string[];
  /** Tenant of this key's caller; only a non-empty string sets one. */
  tenant_id?: string;
}

const API_KEY_CLIENT_KEYS = { client_id: true, roles: true, tenant_id: true } satisfies Record<
  keyof ApiKeyClient,
  true
>;

/** Options for {@linkcode ApiKeyAuth}. */
export interface ApiKeyAuthOptions {
  /** Key → client id, or key → {@linkcode ApiKeyClient}. */
  keys: Record<string, string | ApiKeyClient>;
  /** Header holding the key. @default "x-api-key" */
  header?: string;
}

const API_KEY_AUTH_KEYS = { keys: true, header: true } satisfies Record<keyof ApiKeyAuthOptions, true>;

interface Entry {
  digest: string;
  clientId: string;
  roles: readonly string[];
  tenantId?: string;
}

// Keys verified lately, so a busy caller's key is not hashed on every call.
const RECENT_KEYS = 8;

/** Whether `a` and `b` are equal, in time that depends on their lengths only. */
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function digest(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function entryFor(key: string, value: string | ApiKeyClient): Entry {
  if (key === "") throw new TypeError("ApiKeyAuth: keys must be non-empty strings");
  if (typeof value === "string") {
    if (value === "") throw new TypeError("ApiKeyAuth: a key's client id must be a non-empty string");
    return { digest: digest(key), clientId: value, roles: [] };
  }
  if (typeof value !== "object" || value === null) {
    throw new TypeError("ApiKeyAuth: each key maps to a client id or { client_id, roles?, tenant_id? }");
  }
  checkOptionKeys(value, {
    owner: "ApiKeyAuth key",
    keys: API_KEY_CLIENT_KEYS,
    ...authWording("ApiKeyAuth key"),
  });
  const { client_id: clientId, roles = [], tenant_id: tenantId } = value;
  if (typeof clientId !== "string" || clientId === "") {
    throw new TypeError("ApiKeyAuth: client_id must be a non-empty string");
  }
  if (!Array.isArray(roles) || !roles.every((role) => typeof role === "string")) {
    throw new TypeError("ApiKeyAuth: roles must be a list of strings");
  }
  if (tenantId !== undefined && tenantId !== null && typeof tenantId !== "string") {
    throw new TypeError("ApiKeyAuth: tenant_id must be a string");
  }
  const entry: Entry = { digest: digest(key), clientId, roles: [...roles] };
  if (typeof tenantId === "string" && tenantId !== "") entry.tenantId = tenantId;
  return entry;
}

/**
 * API-key auth. Keys are held as SHA-256 digests and the presented key's digest is looked up:
 * lookups compare digests, never keys, so timing cannot reveal how much of a key matched (a caller
 * cannot steer the digest of what it sends). The last few keys that verified are also kept, and a
 * presented key is first compared with each of them in constant time (every character of every kept
 * key, whether or not one matches), so a caller's key is hashed once, not on every call.
 * Failures throw `AUTHENTICATION_ERROR` ("Missing API key", "Invalid API key").
 *
 * @example
 * ```ts
 * import { ApiKeyAuth } from "@agentry/agentry/mcp";
 * const auth = new ApiKeyAuth({
 *   keys: { "sk-ops-1": { client_id: "ops", roles: ["admin"], tenant_id: "acme" }, "sk-bot": "bot" },
 * });
 * ```
 */
export class ApiKeyAuth implements AuthProvider {
  /** Header holding the key, lower-cased. */
  readonly header: string;
  #entries: ReadonlyMap<string, Entry>;
  #recent: Array<{ key: string; entry: Entry }> = [];

  /** A provider for `options.keys`; a TypeError for malformed keys or unknown options. */
  constructor(options: ApiKeyAuthOptions) {
    checkOptionKeys(options, { owner: "ApiKeyAuth", keys: API_KEY_AUTH_KEYS, ...authWording("ApiKeyAuth") });
    const { keys } = options;
    if (typeof keys !== "object" || keys === null || Array.isArray(keys)) {
      throw new TypeError("ApiKeyAuth: keys must be an object mapping key to client");
    }
    this.#entries = new Map(
      Object.entries(keys).map(([key, value]) => {
        const entry = entryFor(key, value);
        return [entry.digest, entry];
      }),
    );
    this.header = headerName(options.header ?? "x-api-key", "ApiKeyAuth");
  }

  /** The caller's identity from the key in `meta[header]`; API keys carry no claims. */
  authenticate(meta: Readonly<Record<string, string>>): Promise<Identity> {
    try {
      return Promise.resolve(this[AUTHENTICATE_NOW](meta));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** {@linkcode ApiKeyAuth.authenticate}, answering or throwing at once. */
  [AUTHENTICATE_NOW](meta: Readonly<Record<string, string>>): Identity {
    const raw = Object.hasOwn(meta, this.header) ? meta[this.header] : undefined;
    const key = typeof raw === "string" ? raw.trim() : "";
    if (key === "") throw authError("Missing API key");
    const entry = this.#find(key);
    if (entry === undefined) throw authError("Invalid API key");
    const identity: Identity = { clientId: entry.clientId, roles: [...entry.roles] };
    if (entry.tenantId !== undefined) identity.tenantId = entry.tenantId;
    return identity;
  }

  /** Whether `key` is one of the configured keys. */
  verifyToken(key: string): Promise<boolean> {
    return Promise.resolve(
      typeof key === "string" && key.trim() !== "" && this.#find(key.trim()) !== undefined,
    );
  }

  /** The entry of `key`: a recently verified key compared in constant time, else by digest. */
  #find(key: string): Entry | undefined {
    let found: Entry | undefined;
    for (const recent of this.#recent) if (sameText(recent.key, key)) found = recent.entry;
    if (found !== undefined) return found;
    found = this.#entries.get(digest(key));
    if (found !== undefined) {
      if (this.#recent.length === RECENT_KEYS) this.#recent.shift();
      this.#recent.push({ key, entry: found });
    }
    return found;
  }
}
