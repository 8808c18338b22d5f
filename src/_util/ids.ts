/**
 * Identifier helpers.
 *
 * @module
 */

/** `count` random bytes as lowercase hex. */
export function randomHex(count: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(count));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A random UUID v4. */
export function uuid(): string {
  return crypto.randomUUID();
}

/** Seconds since the epoch, with millisecond precision. */
export function epochSeconds(ms: number = Date.now()): number {
  return Math.round(ms) / 1000;
}
