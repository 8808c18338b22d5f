/**
 * Checks for the option objects the auth providers take.
 *
 * @module
 */

/** Throws a TypeError naming the first key of `options` that is not in `allowed`. */
export function assertKnownKeys(options: object, allowed: readonly string[], what: string): void {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`${what} options must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${what}: unknown option "${key}"; allowed: ${allowed.join(", ")}`);
    }
  }
}

/** `value` lower-cased, or a TypeError when it is not a non-empty string. */
export function headerName(value: unknown, what: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`${what}: header must be a non-empty string`);
  }
  return value.trim().toLowerCase();
}

/** `value` as a non-empty string, or undefined when absent; a TypeError for anything else. */
export function optionalString(value: unknown, name: string, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`${what}: ${name} must be a non-empty string`);
  }
  return value;
}

/** `value` as a finite number ≥ `min`, `fallback` when absent; a TypeError for anything else. */
export function numberOption(value: unknown, fallback: number, name: string, what: string, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
    throw new TypeError(`${what}: ${name} must be a finite number ≥ ${min}`);
  }
  return value;
}
