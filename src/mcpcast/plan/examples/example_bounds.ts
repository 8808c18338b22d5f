/**
 * Whether an example keeps a schema's bounds: pattern, string lengths, number ranges and item counts.
 *
 * @module
 */

import type { JsonSchema } from "../../types.ts";

function number(schema: JsonSchema, key: string): number | undefined {
  const value = schema[key];
  return typeof value === "number" ? value : undefined;
}

/**
 * Whether `value` keeps the bounds of `schema` (pattern, lengths, ranges, item counts), nested values
 * included: what the shallow type check of `exampleMismatch` (`examples.ts`) leaves out. A
 * pattern that is not a valid regular expression is not held against the value.
 *
 * @example
 * ```ts
 * import { withinBounds } from "./example_bounds.ts";
 * withinBounds("1.2.3", { pattern: "^\\d+\\.\\d+\\.\\d+$" }); // true
 * withinBounds([1], { minItems: 2 }); // false
 * ```
 */
export function withinBounds(value: unknown, schema: JsonSchema, depth = 0): boolean {
  if (typeof value === "string") {
    const length = [...value].length;
    if (length < (number(schema, "minLength") ?? 0) || length > (number(schema, "maxLength") ?? Infinity)) {
      return false;
    }
    if (typeof schema.pattern === "string" && compiled(schema.pattern)?.test(value) === false) return false;
  }
  if (typeof value === "number") {
    if (value < (number(schema, "minimum") ?? -Infinity) || value > (number(schema, "maximum") ?? Infinity)) {
      return false;
    }
    if (value <= (number(schema, "exclusiveMinimum") ?? -Infinity)) return false;
    if (value >= (number(schema, "exclusiveMaximum") ?? Infinity)) return false;
  }
  if (Array.isArray(value)) {
    const count = value.length;
    if (count < (number(schema, "minItems") ?? 0) || count > (number(schema, "maxItems") ?? Infinity)) {
      return false;
    }
    const items = schema.items;
    if (isRecord(items) && depth < 8 && !value.every((item) => withinBounds(item, items, depth + 1))) {
      return false;
    }
  }
  if (isRecord(value) && isRecord(schema.properties) && depth < 8) {
    const properties = schema.properties;
    for (const [key, item] of Object.entries(value)) {
      const inner = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (isRecord(inner) && !withinBounds(item, inner, depth + 1)) return false;
    }
  }
  return true;
}

/** `pattern` compiled as JSON Schema reads it (ECMA-262, unicode), or undefined when it is not valid. */
function compiled(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
