/**
 * HMAC-SHA256 with precomputed keyed states, for the webhook trigger's signatures. (The MCP audit writer
 * signs with `src/mcp/audit/_hmac_bytes.ts`, over bytes it has already encoded.)
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash, type Hash } from "node:crypto";

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

  /**
   * Whether `header` is `sha256=<hex MAC of body>` (surrounding whitespace and letter case ignored), the
   * hex compared with the MAC in constant time: every byte is decoded and compared, with no early exit.
   */
  verify(header: string | null, body: Uint8Array): boolean {
    const text = header?.trim();
    if (text === undefined || text.length !== PREFIX.length + 64) return false;
    if (text.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return false;
    return hexMatches(text, PREFIX.length, this.digest(body));
  }
}

const PREFIX = "sha256=";

/** Value of each hex digit by character code (0-127); -1 for other characters. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE["0123456789abcdef".charCodeAt(i)] = i;
  HEX_VALUE["0123456789ABCDEF".charCodeAt(i)] = i;
}

/**
 * Whether the `2 * mac.length` characters of `text` from `offset` are the hex of `mac`. Constant time in
 * the content: no branch or early exit depends on a character or a byte (the cost of
 * `timingSafeEqual(Buffer.from(hex, "hex"), mac)` without its buffers).
 */
function hexMatches(text: string, offset: number, mac: Uint8Array): boolean {
  let diff = 0;
  let invalid = 0;
  for (let i = 0; i < mac.length; i++) {
    const high = text.charCodeAt(offset + 2 * i);
    const low = text.charCodeAt(offset + 2 * i + 1);
    const highValue = HEX_VALUE[high & 127];
    const lowValue = HEX_VALUE[low & 127];
    invalid |= ((high | low) & ~127) | ((highValue | lowValue) & 0x80); // non-ASCII, or not a hex digit
    diff |= (((highValue & 15) << 4) | (lowValue & 15)) ^ mac[i];
  }
  return (diff | invalid) === 0;
}
