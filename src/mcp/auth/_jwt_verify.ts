/**
 * What the JWT providers share: reading the bearer token, verifying it with jose (with an LRU cache of
 * verified payloads), mapping failures to client-safe errors, and turning claims into an identity.
 *
 * @module
 */

import { errors, jwtVerify } from "jose";
import type { CryptoKey, JWSHeaderParameters, JWTPayload } from "jose";
import { ToolError } from "../errors.ts";
import type { Identity } from "../types.ts";

/**
 * Where the verification key comes from. `static`: `load()` is awaited before verification and its
 * failures propagate as they are (configuration errors). `per-token`: jose calls `resolve(header)`
 * during verification; a {@linkcode ToolError} it throws reaches the caller unchanged.
 */
export type KeySource =
  | { kind: "static"; load: () => Promise<CryptoKey | Uint8Array> }
  | { kind: "per-token"; resolve: (header: JWSHeaderParameters) => Promise<CryptoKey> };

/** Settings of a {@linkcode JwtVerifier}. */
export interface JwtVerifierOptions {
  /** Accepted header `alg` values. */
  algorithms: readonly string[];
  /** Required audience. */
  audience?: string;
  /** Required issuer (exact match). */
  issuer?: string;
  /** Verified payloads kept; 0 disables the cache. */
  cacheSize: number;
  /** Seconds of clock skew tolerated for `exp` and `nbf`. */
  clockTolerance: number;
  /** The key or key resolver. */
  key: KeySource;
}

/** An `AUTHENTICATION_ERROR` with a fixed client-safe message; `cause` stays server-side. */
export function authError(message: string, cause?: unknown): ToolError {
  return new ToolError("AUTHENTICATION_ERROR", message, { cause });
}

/** `value` without a leading `Bearer ` (any case), trimmed. */
export function stripBearer(value: string): string {
  return value.trim().replace(/^bearer(\s+|$)/i, "").trim();
}

/** The bearer token from `meta[header]`, or a "Missing authentication token" error. */
export function readToken(meta: Readonly<Record<string, string>>, header: string): string {
  const raw = Object.hasOwn(meta, header) ? meta[header] : undefined;
  const token = typeof raw === "string" ? stripBearer(raw) : "";
  if (token === "") throw authError("Missing authentication token");
  return token;
}

/** The identity verified claims describe: id from `sub`, else `client_id`, else "unknown". */
export function identityFromClaims(payload: JWTPayload): Identity {
  const claims: Record<string, unknown> = { ...payload };
  const id = [claims.sub, claims.client_id].find((value) => typeof value === "string" && value !== "");
  const roles = Array.isArray(claims.roles)
    ? claims.roles.filter((role): role is string => typeof role === "string")
    : [];
  return { clientId: typeof id === "string" ? id : "unknown", roles, claims };
}

/** Whether `error` is an authentication refusal (as opposed to a configuration or network fault). */
export function isAuthRefusal(error: unknown): boolean {
  return error instanceof ToolError && error.code === "AUTHENTICATION_ERROR";
}

/** Verifies JWTs against fixed rules and caches verified payloads until their `exp`. */
export class JwtVerifier {
  #options: JwtVerifierOptions;
  #cache = new Map<string, JWTPayload & { exp: number }>();

  /** A verifier with `options`. */
  constructor(options: JwtVerifierOptions) {
    this.#options = options;
  }

  /** The verified payload of `token`; throws "Token expired" or "Invalid token". */
  async verify(token: string): Promise<JWTPayload> {
    const now = Math.floor(Date.now() / 1000);
    const cached = this.#cache.get(token);
    if (cached !== undefined) {
      this.#cache.delete(token);
      if (cached.exp > now) {
        this.#cache.set(token, cached);
        return cached;
      }
    }
    const { algorithms, audience, issuer, clockTolerance, key } = this.#options;
    const options = {
      algorithms: [...algorithms],
      audience,
      issuer,
      clockTolerance,
      requiredClaims: ["exp"],
    };
    const verifyKey = key.kind === "static" ? await key.load() : key.resolve;
    let payload: JWTPayload;
    try {
      const result = typeof verifyKey === "function"
        ? await jwtVerify(token, verifyKey, options)
        : await jwtVerify(token, verifyKey, options);
      payload = result.payload;
    } catch (error) {
      if (error instanceof ToolError) throw error;
      if (error instanceof errors.JWTExpired) throw authError("Token expired", error);
      throw authError("Invalid token", error);
    }
    this.#remember(token, payload);
    return payload;
  }

  #remember(token: string, payload: JWTPayload): void {
    const max = this.#options.cacheSize;
    if (max <= 0 || typeof payload.exp !== "number") return;
    this.#cache.set(token, payload as JWTPayload & { exp: number });
    while (this.#cache.size > max) {
      const oldest = this.#cache.keys().next().value as string;
      this.#cache.delete(oldest);
    }
  }
}
