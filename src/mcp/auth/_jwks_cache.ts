/**
 * A remote JSON Web Key Set with the refetch rules `JwksAuth` promises: the set is kept five minutes;
 * a token naming an unknown `kid` triggers an immediate refetch, at most once per kid per minute and
 * at most once per second overall (at most 1024 kids remembered). Time comes from `Date.now()`.
 *
 * @module
 */

import { importJWK } from "jose";
import type { CryptoKey, JWK, JWSHeaderParameters } from "jose";
import { isLoopbackHost } from "../../_util/net.ts";
import { ToolError } from "../errors.ts";
import { authError } from "./_jwt_verify.ts";

/** How long a fetched key set is trusted. */
export const KEY_SET_TTL_MS = 300_000;
/** Least time between two refetches for the same unknown kid. */
export const KID_REFETCH_INTERVAL_MS = 60_000;
/** Least time between two fetches of the key set. */
export const MIN_REFETCH_INTERVAL_MS = 1_000;
/** Most unknown kids whose last refetch time is remembered. */
export const MAX_TRACKED_KIDS = 1024;
const MAX_DOCUMENT_BYTES = 512 * 1024;

const KEY_TYPES: Readonly<Record<string, string>> = {
  RS: "RSA",
  PS: "RSA",
  ES: "EC",
  Ed: "OKP",
};

/** Settings of a {@linkcode JwksCache}. */
export interface JwksCacheOptions {
  /** The key set URL. */
  url: string;
  /** The fetch to use. */
  fetch: typeof fetch;
  /** Milliseconds one fetch may take, body included. */
  timeoutMs: number;
}

/** A TypeError unless `url` is https, or http on a loopback host. */
export function assertKeyUrl(url: string, what: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${what} must be an absolute URL`);
  }
  const local = parsed.protocol === "http:" && isLoopbackHost(parsed.hostname);
  if (parsed.protocol !== "https:" && !local) {
    throw new TypeError(`${what} must use https (http only on loopback)`);
  }
}

/** GETs `url` as JSON within `timeoutMs`, refusing redirects, non-2xx answers and bodies over 512 KiB. */
export async function fetchJson(url: string, fetchFn: typeof fetch, timeoutMs: number): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchFn(url, {
      signal: controller.signal,
      redirect: "error",
      headers: { accept: "application/json" },
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`GET ${url} answered HTTP ${response.status}`);
    }
    return JSON.parse(await cappedText(response));
  } finally {
    clearTimeout(timer);
  }
}

async function cappedText(response: Response): Promise<string> {
  if (Number(response.headers.get("content-length") ?? 0) > MAX_DOCUMENT_BYTES) {
    await response.body?.cancel();
    throw new Error("document too large");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_DOCUMENT_BYTES) throw new Error("document too large");
    chunks.push(chunk);
  }
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
}

function unavailable(cause: unknown): ToolError {
  return new ToolError("AUTHENTICATION_ERROR", "Token verification keys are unavailable; try again later", {
    retryable: true,
    cause,
  });
}

function parseKeySet(document: unknown): JWK[] {
  const keys = typeof document === "object" && document !== null
    ? (document as { keys?: unknown }).keys
    : undefined;
  if (!Array.isArray(keys)) throw new Error("JWKS document has no keys list");
  return keys.filter((key): key is JWK =>
    typeof key === "object" && key !== null && typeof (key as JWK).kty === "string"
  );
}

/** Public signing keys in `keys` usable for `alg`, narrowed to `kid` when the token names one. */
function candidates(keys: readonly JWK[], alg: string, kid: string | undefined): JWK[] {
  const kty = KEY_TYPES[alg.slice(0, 2)];
  return keys.filter((key) =>
    key.kty === kty && key.d === undefined && (key.use === undefined || key.use === "sig") &&
    (key.key_ops === undefined || key.key_ops.includes("verify")) &&
    (key.alg === undefined || key.alg === alg) && (kid === undefined || key.kid === kid)
  );
}

/** The key set behind one JWKS URL. */
export class JwksCache {
  #options: JwksCacheOptions;
  #keys?: JWK[];
  #fetchedAt = -Infinity;
  #lastAttempt = -Infinity;
  #inflight?: Promise<JWK[]>;
  #kidAttempts = new Map<string, number>();
  #imported = new WeakMap<JWK, Map<string, Promise<CryptoKey>>>();

  /** A cache for `options.url`; nothing is fetched until a key is needed. */
  constructor(options: JwksCacheOptions) {
    this.#options = options;
  }

  /** The key for a token's header; "Invalid token" when none fits, a retryable error when unreachable. */
  async key(header: JWSHeaderParameters): Promise<CryptoKey> {
    const alg = header.alg ?? "";
    const kid = typeof header.kid === "string" ? header.kid : undefined;
    let found = candidates(await this.#current(), alg, kid);
    if (found.length === 0 && kid !== undefined) {
      const pending = this.#inflight ?? (this.#mayRefetch(kid) ? this.#refresh() : undefined);
      if (pending !== undefined) found = candidates(await pending, alg, kid);
    }
    if (found.length !== 1) throw authError("Invalid token");
    return await this.#import(found[0], alg);
  }

  async #current(): Promise<JWK[]> {
    const now = Date.now();
    if (this.#keys !== undefined && now - this.#fetchedAt < KEY_SET_TTL_MS) return this.#keys;
    if (this.#inflight !== undefined) return await this.#inflight;
    if (now - this.#lastAttempt < MIN_REFETCH_INTERVAL_MS) throw unavailable(undefined);
    return await this.#refresh();
  }

  #mayRefetch(kid: string): boolean {
    const now = Date.now();
    const last = this.#kidAttempts.get(kid);
    if (last !== undefined && now - last < KID_REFETCH_INTERVAL_MS) return false;
    if (now - this.#lastAttempt < MIN_REFETCH_INTERVAL_MS) return false;
    this.#kidAttempts.delete(kid);
    this.#kidAttempts.set(kid, now);
    if (this.#kidAttempts.size > MAX_TRACKED_KIDS) {
      this.#kidAttempts.delete(this.#kidAttempts.keys().next().value as string);
    }
    return true;
  }

  #refresh(): Promise<JWK[]> {
    this.#lastAttempt = Date.now();
    const { url, fetch, timeoutMs } = this.#options;
    const loading = fetchJson(url, fetch, timeoutMs).then(parseKeySet).then(
      (keys) => {
        this.#keys = keys;
        this.#fetchedAt = Date.now();
        return keys;
      },
      (error: unknown) => {
        throw unavailable(error);
      },
    ).finally(() => this.#inflight = undefined);
    this.#inflight = loading;
    return loading;
  }

  async #import(jwk: JWK, alg: string): Promise<CryptoKey> {
    let byAlg = this.#imported.get(jwk);
    if (byAlg === undefined) this.#imported.set(jwk, byAlg = new Map());
    let key = byAlg.get(alg);
    if (key === undefined) byAlg.set(alg, key = importJWK(jwk, alg) as Promise<CryptoKey>);
    try {
      return await key;
    } catch (error) {
      throw authError("Invalid token", error);
    }
  }
}
