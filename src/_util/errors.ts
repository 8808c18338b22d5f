/**
 * Helpers for unknown thrown values.
 *
 * @module
 */

/** A thrown value as an Error (wrapping non-Error values). */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** `<ErrorName>: <message>` for logs (never for API answers). */
export function describeError(value: unknown): string {
  const error = asError(value);
  return `${error.name}: ${error.message}`;
}
