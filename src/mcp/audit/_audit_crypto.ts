/**
 * HMAC-SHA256 over canonical JSON, shared by the audit writer and its verifier.
 *
 * @module
 */

import { canonicalJson } from "./canonical_json.ts";

/** `prev_hash` of the first entry of a chain: 64 zeros. */
export const GENESIS_HASH: string = "0".repeat(64);

const HEX_64 = /^[0-9a-f]{64}$/;
const encoder = new TextEncoder();

/** Whether `value` looks like an HMAC-SHA256 in lower-case hex. */
export function isHashHex(value: unknown): value is string {
  return typeof value === "string" && HEX_64.test(value);
}

/** A WebCrypto HMAC-SHA256 key from a secret string (its UTF-8 bytes). */
export function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

/** Whether `entry.hmac` is the HMAC of the rest of `entry` under `key` (compared in constant time). */
export async function entryVerifies(key: CryptoKey, entry: Record<string, unknown>): Promise<boolean> {
  const { hmac, ...rest } = entry;
  if (!isHashHex(hmac)) return false;
  const signature = new Uint8Array(32);
  for (let i = 0; i < 32; i++) signature[i] = parseInt(hmac.slice(i * 2, i * 2 + 2), 16);
  return await crypto.subtle.verify("HMAC", key, signature, encoder.encode(canonicalJson(rest)));
}
