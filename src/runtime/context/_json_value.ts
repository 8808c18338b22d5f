/**
 * JSON value checks for context writes.
 *
 * @module
 */

/** Why `value` is not a JSON value (string, finite number, boolean, null, array, plain object), or undefined. */
export function checkJsonValue(value: unknown, seen: Set<object> = new Set()): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : "a number that is not finite";
  if (typeof value !== "object") return `a ${typeof value}`;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return "an object of a class";
  if (seen.has(value)) return "a cyclic value";
  seen.add(value);
  for (const child of Object.values(value)) {
    const problem = checkJsonValue(child, seen);
    if (problem !== undefined) return problem;
  }
  seen.delete(value);
  return undefined;
}

/** UTF-8 size of `value` as JSON. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength;
}
