/**
 * Nesting depth of parsed JSON, measured without recursion (a deep value must not overflow the stack
 * of the code that checks it).
 *
 * @module
 */

/** Deepest nesting accepted in request bodies and webhook payloads (objects and arrays). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests objects and arrays more than `limit` levels deep (a scalar is depth 0, `{}` and
 * `[]` depth 1). Stops as soon as the limit is passed.
 */
export function nestedDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
