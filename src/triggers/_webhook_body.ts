/**
 * Webhook request helpers: reading the raw body with a size and time limit, and checking the HMAC
 * signature.
 *
 * @module
 */

import { createHmac, timingSafeEqual } from "node:crypto";

/** HMAC-SHA256 of `body` keyed with `secret` equals the header's `sha256=<hex>`, compared in constant time. */
export function signatureValid(secret: string, header: string | null, body: Uint8Array): boolean {
  const match = header === null ? null : /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac("sha256", secret).update(body).digest("hex");
  const encoder = new TextEncoder();
  return timingSafeEqual(encoder.encode(expected), encoder.encode(match[1].toLowerCase()));
}

export { readLimitedBody as readBody } from "../_util/read_body.ts";
