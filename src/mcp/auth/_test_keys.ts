/**
 * Test helper: key pairs and signed tokens for the auth providers' tests.
 *
 * @module
 */

import { base64url, exportJWK, exportSPKI, generateKeyPair, SignJWT } from "jose";
import type { CryptoKey, JWK } from "jose";

/** A generated key pair with its public half in the forms providers read. */
export interface TestKeyPair {
  /** Signature algorithm. */
  alg: "RS256" | "ES256";
  /** Key id put on the JWK and on tokens signed with {@linkcode signToken}. */
  kid: string;
  /** Signing key. */
  privateKey: CryptoKey;
  /** SPKI PEM text of the public key. */
  publicPem: string;
  /** Public JWK with `kid`, `alg` and `use: "sig"`. */
  publicJwk: JWK;
}

/** A fresh extractable key pair for `alg`. */
export async function testKeyPair(alg: "RS256" | "ES256", kid = "key-1"): Promise<TestKeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...await exportJWK(publicKey), kid, alg, use: "sig" };
  return { alg, kid, privateKey, publicPem: await exportSPKI(publicKey), publicJwk };
}

/** Options for {@linkcode signToken}. */
export interface SignTokenOptions {
  /** Header `alg`. @default the pair's alg, or "HS256" for a secret */
  alg?: string;
  /** Header `kid`; `null` leaves it out. @default the pair's kid */
  kid?: string | null;
  /** Seconds until `exp`; `null` leaves `exp` out. Ignored when `claims.exp` is set. @default 3600 */
  expiresIn?: number | null;
}

/** A token over `claims`, signed with a key pair or an HS256 secret (text). */
export async function signToken(
  claims: Record<string, unknown>,
  signer: TestKeyPair | string,
  options: SignTokenOptions = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = { ...claims };
  const expiresIn = options.expiresIn === undefined ? 3600 : options.expiresIn;
  if (payload.exp === undefined && expiresIn !== null) payload.exp = now + expiresIn;
  const pair = typeof signer === "string" ? undefined : signer;
  const alg = options.alg ?? pair?.alg ?? "HS256";
  const kid = options.kid === undefined ? pair?.kid : options.kid ?? undefined;
  const key = pair?.privateKey ?? new TextEncoder().encode(signer as string);
  return await new SignJWT(payload).setProtectedHeader(kid === undefined ? { alg } : { alg, kid }).sign(key);
}

/** An unsigned token (`alg: "none"` unless `header` says otherwise) over `claims`. */
export function unsignedToken(claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: "none", ...header })}.${encode(claims)}.`;
}
