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

/** The raw body, or the status to answer: 413 over `limit`, 408 too slow, 400 broken stream. */
export async function readBody(
  request: Request,
  limit: number,
  timeoutMs: number,
): Promise<Uint8Array | number> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return 413;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<number>((resolve) => timer = setTimeout(() => resolve(408), timeoutMs));
  try {
    while (true) {
      const chunk = await Promise.race([reader.read(), timeout]).catch(() => 400);
      if (typeof chunk === "number") return chunk;
      if (chunk.done) {
        done = true;
        break;
      }
      size += chunk.value.byteLength;
      if (size > limit) return 413;
      chunks.push(chunk.value);
    }
  } finally {
    clearTimeout(timer);
    if (!done) reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
