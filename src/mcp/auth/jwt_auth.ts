/**
 * JWT bearer-token auth with a shared secret (HS256) or a public key (RS256, ES256).
 *
 * @module
 */

import { importSPKI, SignJWT } from "jose";
import type { CryptoKey } from "jose";
import type { AuthProvider, Identity } from "../types.ts";
import { identityFromClaims, isAuthRefusal, JwtVerifier, readToken, stripBearer } from "./_jwt_verify.ts";
import type { KeySource } from "./_jwt_verify.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import { authWording, headerName, numberOption, optionalString } from "./_options.ts";

/** Options shared by {@linkcode JwtAuth} and {@linkcode AsymmetricJwtAuth}. */
export interface JwtCommonOptions {
  /** When set, the `aud` claim (string or list) must include it; tokens without `aud` are refused. */
  audience?: string;
  /** When set, the `iss` claim must equal it exactly. */
  issuer?: string;
  /** Header holding the token (a `Bearer ` prefix is stripped). @default "authorization" */
  header?: string;
  /** Verified tokens remembered (LRU, each until its `exp`); 0 disables the cache. @default 256 */
  cacheSize?: number;
}

/** Options for {@linkcode JwtAuth}. */
export interface JwtAuthOptions extends JwtCommonOptions {
  /** The HS256 shared secret. */
  secret: string;
}

/** Options for {@linkcode AsymmetricJwtAuth}. */
export interface AsymmetricJwtAuthOptions extends JwtCommonOptions {
  /** The SPKI public key as PEM text, or the path of a PEM file (read once, on first use). */
  publicKey: string;
  /** The one accepted signature algorithm. @default "RS256" */
  algorithm?: "RS256" | "ES256";
}

/** Options for {@linkcode JwtAuth.createToken}. */
export interface CreateTokenOptions {
  /** Lifetime in seconds. @default 3600 */
  expiresIn?: number;
}

const COMMON_KEYS = {
  audience: true,
  issuer: true,
  header: true,
  cacheSize: true,
} satisfies Record<keyof JwtCommonOptions, true>;
const JWT_AUTH_KEYS = { secret: true, ...COMMON_KEYS } satisfies Record<keyof JwtAuthOptions, true>;
const ASYMMETRIC_KEYS = {
  publicKey: true,
  algorithm: true,
  ...COMMON_KEYS,
} satisfies Record<keyof AsymmetricJwtAuthOptions, true>;
const CREATE_TOKEN_KEYS = { expiresIn: true } satisfies Record<keyof CreateTokenOptions, true>;

interface Common {
  audience?: string;
  issuer?: string;
  header: string;
  cacheSize: number;
}

function resolveCommon(options: JwtCommonOptions, what: string): Common {
  return {
    audience: optionalString(options.audience, "audience", what),
    issuer: optionalString(options.issuer, "issuer", what),
    header: headerName(options.header ?? "authorization", what),
    cacheSize: Math.floor(numberOption(options.cacheSize, 256, "cacheSize", what)),
  };
}

async function verifies(verifier: JwtVerifier, token: string): Promise<boolean> {
  try {
    await verifier.verify(stripBearer(token));
    return true;
  } catch (error) {
    if (isAuthRefusal(error)) return false;
    throw error;
  }
}

/**
 * HS256 JWT auth. `exp` is required; `nbf`, `aud` and `iss` are checked as configured. Failures throw
 * `AUTHENTICATION_ERROR` ("Missing authentication token", "Token expired", "Invalid token").
 *
 * @example
 * ```ts
 * import { JwtAuth } from "@agentry/agentry/mcp";
 * const auth = new JwtAuth({ secret: "a long random secret", audience: "orders-api" });
 * const token = await auth.createToken({ sub: "agent-1", roles: ["reader"] });
 * ```
 */
export class JwtAuth implements AuthProvider {
  /** Header holding the token, lower-cased. */
  readonly header: string;
  #common: Common;
  #secret: Uint8Array;
  #verifier: JwtVerifier;

  /** An HS256 provider; a TypeError for an empty secret or an unknown option. */
  constructor(options: JwtAuthOptions) {
    checkOptionKeys(options, { owner: "JwtAuth", keys: JWT_AUTH_KEYS, ...authWording("JwtAuth") });
    if (typeof options.secret !== "string" || options.secret === "") {
      throw new TypeError("JwtAuth: secret must be a non-empty string");
    }
    this.#common = resolveCommon(options, "JwtAuth");
    this.header = this.#common.header;
    this.#secret = new TextEncoder().encode(options.secret);
    const secret = this.#secret;
    this.#verifier = new JwtVerifier({
      ...this.#common,
      algorithms: ["HS256"],
      clockTolerance: 0,
      key: { kind: "static", load: () => Promise.resolve(secret) },
    });
  }

  /** The caller's identity from the token in `meta[header]`. */
  async authenticate(meta: Readonly<Record<string, string>>): Promise<Identity> {
    return identityFromClaims(await this.#verifier.verify(readToken(meta, this.header)));
  }

  /** Whether `token` (with or without `Bearer `) is valid now. */
  verifyToken(token: string): Promise<boolean> {
    return verifies(this.#verifier, token);
  }

  /** A signed HS256 token with `claims` plus `iat`, `exp`, and the configured `aud` and `iss`. */
  async createToken(claims: Record<string, unknown>, options: CreateTokenOptions = {}): Promise<string> {
    checkOptionKeys(options, {
      owner: "createToken",
      keys: CREATE_TOKEN_KEYS,
      ...authWording("createToken"),
    });
    const expiresIn = numberOption(options.expiresIn, 3600, "expiresIn", "createToken", 1);
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = { ...claims, iat: now, exp: now + Math.floor(expiresIn) };
    if (this.#common.audience !== undefined) payload.aud = this.#common.audience;
    if (this.#common.issuer !== undefined) payload.iss = this.#common.issuer;
    return await new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(this.#secret);
  }
}

/**
 * RS256 or ES256 JWT auth with one public key (PEM text or a PEM file path). Same claim rules as
 * {@linkcode JwtAuth}; only the configured algorithm is accepted.
 *
 * @example
 * ```ts
 * import { AsymmetricJwtAuth } from "@agentry/agentry/mcp";
 * const auth = new AsymmetricJwtAuth({ publicKey: "/etc/agentry/issuer.pem", algorithm: "ES256" });
 * ```
 */
export class AsymmetricJwtAuth implements AuthProvider {
  /** Header holding the token, lower-cased. */
  readonly header: string;
  #publicKey: string;
  #algorithm: "RS256" | "ES256";
  #key?: Promise<CryptoKey>;
  #verifier: JwtVerifier;

  /** A public-key provider; a TypeError for a bad algorithm, an empty key or an unknown option. */
  constructor(options: AsymmetricJwtAuthOptions) {
    checkOptionKeys(options, {
      owner: "AsymmetricJwtAuth",
      keys: ASYMMETRIC_KEYS,
      ...authWording("AsymmetricJwtAuth"),
    });
    if (typeof options.publicKey !== "string" || options.publicKey.trim() === "") {
      throw new TypeError("AsymmetricJwtAuth: publicKey must be PEM text or a file path");
    }
    const algorithm = options.algorithm ?? "RS256";
    if (algorithm !== "RS256" && algorithm !== "ES256") {
      throw new TypeError('AsymmetricJwtAuth: algorithm must be "RS256" or "ES256"');
    }
    this.#publicKey = options.publicKey;
    this.#algorithm = algorithm;
    const common = resolveCommon(options, "AsymmetricJwtAuth");
    this.header = common.header;
    const key: KeySource = { kind: "static", load: () => this.#loadKey() };
    this.#verifier = new JwtVerifier({ ...common, algorithms: [algorithm], clockTolerance: 0, key });
  }

  /** The caller's identity from the token in `meta[header]`. */
  async authenticate(meta: Readonly<Record<string, string>>): Promise<Identity> {
    return identityFromClaims(await this.#verifier.verify(readToken(meta, this.header)));
  }

  /** Whether `token` (with or without `Bearer `) is valid now; key loading failures propagate. */
  verifyToken(token: string): Promise<boolean> {
    return verifies(this.#verifier, token);
  }

  /** The imported key; a path is read once. A failed load is not remembered, so it can be fixed. */
  #loadKey(): Promise<CryptoKey> {
    if (this.#key === undefined) {
      const loading = (async () => {
        const text = this.#publicKey.trimStart().startsWith("-----BEGIN")
          ? this.#publicKey
          : await Deno.readTextFile(this.#publicKey);
        return await importSPKI(text.trim(), this.#algorithm);
      })();
      this.#key = loading;
      loading.catch(() => {
        if (this.#key === loading) this.#key = undefined;
      });
    }
    return this.#key;
  }
}
