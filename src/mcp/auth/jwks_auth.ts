/**
 * JWT auth against an identity provider's published key set (JWKS), optionally found through OpenID
 * Connect discovery.
 *
 * @module
 */

import type { AuthProvider, Identity } from "../types.ts";
import { assertKeyUrl, fetchJson, JwksCache } from "./_jwks_cache.ts";
import { identityFromClaims, isAuthRefusal, JwtVerifier, readToken, stripBearer } from "./_jwt_verify.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import { authWording, headerName, numberOption, optionalString } from "./_options.ts";

/** Signature algorithms {@linkcode JwksAuth} may accept (asymmetric only). */
export type JwksAlgorithm =
  | "RS256"
  | "RS384"
  | "RS512"
  | "PS256"
  | "PS384"
  | "PS512"
  | "ES256"
  | "ES384"
  | "ES512"
  | "EdDSA"
  | "Ed25519";

const ASYMMETRIC: ReadonlySet<string> = new Set<JwksAlgorithm>([
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
]);

/** Options for {@linkcode JwksAuth.fromDiscovery}. */
export interface JwksDiscoveryOptions {
  /** Required: the `aud` claim (string or list) must include it. */
  audience: string;
  /** Accepted signature algorithms; symmetric ones (HS*) are refused. @default ["RS256", "ES256"] */
  algorithms?: JwksAlgorithm[];
  /** Header holding the token (a `Bearer ` prefix is stripped). @default "authorization" */
  header?: string;
  /** Seconds of clock skew tolerated for `exp` and `nbf`. @default 60 */
  leeway?: number;
  /** Seconds one fetch (discovery or key set) may take. @default 5 */
  requestTimeout?: number;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Options for {@linkcode JwksAuth}. */
export interface JwksAuthOptions extends JwksDiscoveryOptions {
  /** The key set URL: https, or http on a loopback host. */
  jwksUrl: string;
  /** When set, the `iss` claim must equal it exactly. */
  issuer?: string;
}

const DISCOVERY_KEYS = {
  audience: true,
  algorithms: true,
  header: true,
  leeway: true,
  requestTimeout: true,
  fetch: true,
} satisfies Record<keyof JwksDiscoveryOptions, true>;
const JWKS_KEYS = { jwksUrl: true, issuer: true, ...DISCOVERY_KEYS } satisfies Record<
  keyof JwksAuthOptions,
  true
>;

/**
 * JWT auth with keys from a JWKS URL. The key set is kept five minutes; a token naming an unknown
 * `kid` triggers an immediate refetch (at most once per kid per minute, once per second overall).
 * `exp` is required; `aud` must include the configured audience.
 *
 * @example
 * ```ts
 * import { JwksAuth } from "@agentry/agentry/mcp";
 * const auth = await JwksAuth.fromDiscovery("https://login.example.com", { audience: "orders-api" });
 * ```
 */
export class JwksAuth implements AuthProvider {
  /** Header holding the token, lower-cased. */
  readonly header: string;
  #verifier: JwtVerifier;

  /** A provider for `options.jwksUrl`; a TypeError for a missing audience, HS* algorithms or bad options. */
  constructor(options: JwksAuthOptions) {
    checkOptionKeys(options, { owner: "JwksAuth", keys: JWKS_KEYS, ...authWording("JwksAuth") });
    if (typeof options.jwksUrl !== "string") throw new TypeError("JwksAuth: jwksUrl is required");
    assertKeyUrl(options.jwksUrl, "JwksAuth: jwksUrl");
    const audience = optionalString(options.audience, "audience", "JwksAuth");
    if (audience === undefined) throw new TypeError("JwksAuth: audience is required");
    const algorithms = options.algorithms ?? ["RS256", "ES256"];
    if (
      !Array.isArray(algorithms) || algorithms.length === 0 || !algorithms.every((a) => ASYMMETRIC.has(a))
    ) {
      throw new TypeError(`JwksAuth: algorithms must be a non-empty list of: ${[...ASYMMETRIC].join(", ")}`);
    }
    const fetchFn = options.fetch ?? globalThis.fetch;
    if (typeof fetchFn !== "function") throw new TypeError("JwksAuth: fetch must be a function");
    this.header = headerName(options.header ?? "authorization", "JwksAuth");
    const timeout = numberOption(options.requestTimeout, 5, "requestTimeout", "JwksAuth", 0.001);
    const keys = new JwksCache({ url: options.jwksUrl, fetch: fetchFn, timeoutMs: timeout * 1000 });
    this.#verifier = new JwtVerifier({
      algorithms,
      audience,
      issuer: optionalString(options.issuer, "issuer", "JwksAuth"),
      cacheSize: 0,
      clockTolerance: numberOption(options.leeway, 60, "leeway", "JwksAuth"),
      key: { kind: "per-token", resolve: (header) => keys.key(header) },
    });
  }

  /**
   * A provider for `issuer`: reads `<issuer>/.well-known/openid-configuration`, requires its `issuer`
   * to equal `issuer` exactly, then uses its `jwks_uri`; tokens must carry that `iss`.
   */
  static async fromDiscovery(issuer: string, options: JwksDiscoveryOptions): Promise<JwksAuth> {
    checkOptionKeys(options, {
      owner: "JwksAuth.fromDiscovery",
      keys: DISCOVERY_KEYS,
      ...authWording("JwksAuth.fromDiscovery"),
    });
    if (typeof issuer !== "string" || issuer === "") {
      throw new TypeError("JwksAuth.fromDiscovery: issuer is required");
    }
    assertKeyUrl(issuer, "JwksAuth.fromDiscovery: issuer");
    const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
    const timeout = numberOption(
      options.requestTimeout,
      5,
      "requestTimeout",
      "JwksAuth.fromDiscovery",
      0.001,
    );
    const document = await fetchJson(url, options.fetch ?? globalThis.fetch, timeout * 1000);
    const fields = typeof document === "object" && document !== null
      ? document as Record<string, unknown>
      : {};
    if (fields.issuer !== issuer) {
      const seen = JSON.stringify(fields.issuer ?? null).slice(0, 200);
      throw new Error(`OIDC discovery for ${issuer} names issuer ${seen}; refusing its keys`);
    }
    if (typeof fields.jwks_uri !== "string") throw new Error(`OIDC discovery for ${issuer} has no jwks_uri`);
    return new JwksAuth({ ...options, jwksUrl: fields.jwks_uri, issuer });
  }

  /** The caller's identity from the token in `meta[header]`. */
  async authenticate(meta: Readonly<Record<string, string>>): Promise<Identity> {
    return identityFromClaims(await this.#verifier.verify(readToken(meta, this.header)));
  }

  /** Whether `token` (with or without `Bearer `) is valid now; false also when keys are unreachable. */
  async verifyToken(token: string): Promise<boolean> {
    try {
      await this.#verifier.verify(stripBearer(token));
      return true;
    } catch (error) {
      if (isAuthRefusal(error)) return false;
      throw error;
    }
  }
}
