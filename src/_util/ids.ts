/**
 * Identifier helpers.
 *
 * @module
 */

/** Each byte value as two lowercase hex digits. */
const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** `count` random bytes as lowercase hex. */
export function randomHex(count: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(count));
  let hex = "";
  for (const byte of bytes) hex += BYTE_HEX[byte];
  return hex;
}

/** A random UUID v4. */
export function uuid(): string {
  return crypto.randomUUID();
}

/** Seconds since the epoch, with millisecond precision. */
export function epochSeconds(ms: number = Date.now()): number {
  return Math.round(ms) / 1000;
}
