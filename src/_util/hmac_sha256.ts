/**
 * HMAC-SHA256 with precomputed keyed states, for the webhook trigger's signatures and the MCP audit
 * chain.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash, type Hash, timingSafeEqual } from "node:crypto";

const BLOCK = 64;

/**
 * HMAC-SHA256 (RFC 2104) with the keyed inner and outer hash states computed once, so each request
 * costs two hash copies instead of a new HMAC object.
 */
export class HmacSha256 {
  #inner: Hash;
  #outer: Hash;

  /** A signer for `secret` (UTF-8). */
  constructor(secret: string) {
    let key: Buffer = Buffer.from(secret, "utf8");
    if (key.length > BLOCK) key = createHash("sha256").update(key).digest();
    const block = Buffer.alloc(BLOCK);
    key.copy(block);
    this.#inner = createHash("sha256").update(block.map((b) => b ^ 0x36));
    this.#outer = createHash("sha256").update(block.map((b) => b ^ 0x5c));
  }

  /** The 32-byte MAC of `body`. */
  digest(body: Uint8Array): Buffer {
    const inner = this.#inner.copy().update(body).digest();
    return this.#outer.copy().update(inner).digest();
  }

  /** The MAC of `text` (UTF-8) as lower-case hex. */
  hex(text: string): string {
    const inner = this.#inner.copy().update(text, "utf8").digest();
    return this.#outer.copy().update(inner).digest("hex");
  }

  /** Whether `header` is `sha256=<hex MAC of body>`, compared in constant time. */
  verify(header: string | null, body: Uint8Array): boolean {
    const match = header === null ? null : /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
    if (!match) return false;
    return timingSafeEqual(Buffer.from(match[1], "hex"), this.digest(body));
  }
}
