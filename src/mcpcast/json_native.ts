/**
 * Plan values that reach generated code or the wire (schemas, defaults, examples) must be JSON:
 * YAML can produce dates and non-finite numbers (`.inf`, `.nan`), which become strings here.
 *
 * @module
 */

import { McpcastError } from "./errors.ts";
import { scrubText } from "./spec_scrub.ts";

function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return "Invalid Date";
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

function convert(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value === "string") return scrubText(value);
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "boolean" || value === null) return value;
  if (value === undefined) return null;
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (value instanceof Date) return dateText(value);
  if (typeof value !== "object") return String(value);
  if (ancestors.has(value)) {
    throw new McpcastError("a value contains itself (a reference cycle, such as a YAML alias loop)");
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => convert(item, ancestors));
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return String(value);
    return Object.fromEntries(
      Object.entries(value).filter(([, item]) => item !== undefined).map((
        [key, item],
      ) => [scrubText(key), convert(item, ancestors)]),
    );
  } finally {
    ancestors.delete(value);
  }
}

/**
 * `value` as plain JSON data: strings scrubbed of terminal controls, dates as ISO text (a date
 * at midnight UTC as `YYYY-MM-DD`), `Infinity`/`-Infinity`/`NaN` as those strings, big integers as
 * numbers when safe else text, `undefined` object entries dropped (`null` in arrays), any other
 * object as its text. Arrays and plain objects are copied; keys become own properties.
 *
 * @throws {McpcastError} when the value contains itself (a reference cycle).
 *
 * @example
 * ```ts
 * import { jsonNative } from "./json_native.ts";
 * jsonNative({ when: new Date("2026-01-15"), max: Infinity }); // { when: "2026-01-15", max: "Infinity" }
 * ```
 */
export function jsonNative(value: unknown): unknown {
  return convert(value, new Set());
}
