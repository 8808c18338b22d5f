/**
 * A development token endpoint: the OAuth client-credentials flow against a fixed map of clients,
 * answering with a JWT signed by the server's own JWT provider.
 *
 * Wire format (field names follow OAuth 2.0, RFC 6749 §4.4 and §5):
 *
 * | Request body (JSON) | |
 * |---|---|
 * | `grant_type` | optional; only `"client_credentials"` (the default) |
 * | `client_id`, `client_secret` | required strings |
 *
 * | Status | Body |
 * |---|---|
 * | 200 | `{"access_token": "<jwt>", "token_type": "bearer", "expires_in": <seconds>}` |
 * | 400 | `{"error": "invalid_request"}` (bad JSON, missing fields) or `{"error": "unsupported_grant_type"}` |
 * | 401 | `{"error": "invalid_client"}` (unknown client or wrong secret) |
 * | 405 / 413 / 415 | not POST (with `Allow: POST`) / body over 64 KiB / not `application/json` |
 *
 * The token's claims are `{ sub: client_id, roles, ...claims }`. Every answer carries
 * `Cache-Control: no-store`.
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";
import { isJsonType, json, readJson } from "./_http.ts";

/** Signs tokens; {@linkcode JwtAuth} fits. */
export interface TokenSigner {
  /** A signed token carrying `claims`, valid for `expiresIn` seconds. */
  createToken(claims: Record<string, unknown>, options: { expiresIn: number }): Promise<string>;
}

/** A client allowed to obtain tokens. */
export interface TokenClient {
  /** The client secret. */
  secret: string;
  /** Roles put in the token's `roles` claim. @default [] */
  roles?: string[];
  /** Token lifetime in seconds. @default the endpoint's defaultExpiresIn */
  expiresIn?: number;
  /** Extra claims (e.g. a tenant id). */
  claims?: Record<string, unknown>;
}

/** Options for {@linkcode tokenEndpoint}. */
export interface TokenEndpointOptions {
  /** The signer of issued tokens. */
  auth: TokenSigner;
  /** Clients by client id. */
  clients: Record<string, TokenClient>;
  /** Path the fetch handler serves the endpoint at. @default "/auth/token" */
  path?: string;
  /** Token lifetime in seconds for clients without their own. @default 86400 */
  defaultExpiresIn?: number;
}

/** The endpoint's request handler, with the path it is meant to be served at. */
export interface TokenEndpoint {
  /** Answers one token request. */
  (request: Request): Promise<Response>;
  /** Path to serve it at. */
  readonly path: string;
}

const MAX_BODY_BYTES = 64 * 1024;
const OPTION_KEYS = {
  auth: true,
  clients: true,
  path: true,
  defaultExpiresIn: true,
} satisfies Record<keyof TokenEndpointOptions, true>;
const CLIENT_KEYS = {
  secret: true,
  roles: true,
  expiresIn: true,
  claims: true,
} satisfies Record<keyof TokenClient, true>;
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };
const encoder = new TextEncoder();

function positive(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`tokenEndpoint: ${what} must be a positive number of seconds`);
  }
  return value;
}

function checkClients(clients: Record<string, TokenClient>): void {
  if (typeof clients !== "object" || clients === null) {
    throw new TypeError("tokenEndpoint: clients must be an object");
  }
  for (const [id, client] of Object.entries(clients)) {
    checkOptionKeys((client ?? {}) as TokenClient, {
      owner: `tokenEndpoint: client '${id}'`,
      keys: CLIENT_KEYS,
    });
    if (typeof client?.secret !== "string" || client.secret === "") {
      throw new TypeError(`tokenEndpoint: client '${id}' needs a non-empty secret`);
    }
    if (
      client.roles !== undefined &&
      !(Array.isArray(client.roles) && client.roles.every((r) => typeof r === "string"))
    ) {
      throw new TypeError(`tokenEndpoint: client '${id}': roles must be a list of strings`);
    }
    if (client.expiresIn !== undefined) positive(client.expiresIn, `client '${id}' expiresIn`);
  }
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Compares two strings in time independent of where they differ (both are hashed first). */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return json(status, body, { ...NO_STORE, ...headers });
}

/**
 * A token endpoint handler (see the module doc for the wire format).
 *
 * @example
 * ```ts
 * import { JwtAuth, tokenEndpoint } from "@agentry/agentry/mcp";
 * const auth = new JwtAuth({ secret: "a long random secret" });
 * const endpoint = tokenEndpoint({ auth, clients: { "agent-1": { secret: "s3cret", roles: ["reader"] } } });
 * ```
 */
export function tokenEndpoint(options: TokenEndpointOptions): TokenEndpoint {
  checkOptionKeys(options, { owner: "tokenEndpoint", keys: OPTION_KEYS });
  if (typeof options.auth?.createToken !== "function") {
    throw new TypeError("tokenEndpoint: auth must have createToken (e.g. a JwtAuth)");
  }
  checkClients(options.clients);
  const path = options.path ?? "/auth/token";
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw new TypeError("tokenEndpoint: path must start with '/'");
  }
  const defaultExpiresIn = positive(options.defaultExpiresIn ?? 86400, "defaultExpiresIn");
  const clients = new Map(Object.entries(options.clients));
  const auth = options.auth;

  async function handle(request: Request): Promise<Response> {
    if (request.method !== "POST") return answer(405, { error: "method_not_allowed" }, { allow: "POST" });
    if (!isJsonType(request.headers.get("content-type"))) {
      return answer(415, { error: "unsupported_media_type" });
    }
    const body = await readJson(request, MAX_BODY_BYTES);
    if (body === 413) return answer(413, { error: "request_too_large" });
    if (body === 408) return answer(408, { error: "request_timeout" });
    if (body === 400 || typeof body.value !== "object" || body.value === null || Array.isArray(body.value)) {
      return answer(400, { error: "invalid_request" });
    }
    const fields = body.value as Record<string, unknown>;
    const grantType = fields.grant_type ?? "client_credentials";
    if (grantType !== "client_credentials") return answer(400, { error: "unsupported_grant_type" });
    const { client_id: clientId, client_secret: secret } = fields;
    if (typeof clientId !== "string" || typeof secret !== "string") {
      return answer(400, { error: "invalid_request" });
    }
    const client = Object.hasOwn(options.clients, clientId) ? clients.get(clientId) : undefined;
    // Unknown clients still pay for a comparison, so timing does not reveal which ids exist.
    const matches = await sameSecret(secret, client?.secret ?? "\u0000unknown-client");
    if (!client || !matches) return answer(401, { error: "invalid_client" });
    const expiresIn = client.expiresIn ?? defaultExpiresIn;
    let token: string;
    try {
      token = await auth.createToken({ sub: clientId, roles: client.roles ?? [], ...client.claims }, {
        expiresIn,
      });
    } catch {
      return answer(500, { error: "server_error" });
    }
    return answer(200, { access_token: token, token_type: "bearer", expires_in: expiresIn });
  }
  return Object.defineProperty(handle, "path", { value: path, enumerable: true }) as TokenEndpoint;
}
