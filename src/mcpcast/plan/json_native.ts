/**
 * Plan values that reach generated code or the wire (schemas, defaults, examples) must be JSON:
 * YAML can produce dates and non-finite numbers (`.inf`, `.nan`), which become strings here.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import { scrubText } from "../_scrub.ts";
import { setOwn } from "../_spec_values.ts";

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
    if (Array.isArray(value)) return convertList(value, ancestors);
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return String(value);
    return convertMap(value as Record<string, unknown>, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

// Copy on write: a list or map comes back as itself when nothing in it changes (the usual case for
// schemas read from JSON), so a large plan does not duplicate every schema it holds.

function convertList(list: unknown[], ancestors: Set<object>): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const next = convert(item, ancestors);
    // A hole reads as undefined and becomes null, so it is a change too.
    if (out === undefined && (next !== item || !(i in list))) out = list.slice(0, i);
    out?.push(next);
  }
  return out ?? list;
}

function convertMap(map: Record<string, unknown>, ancestors: Set<object>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(map);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const item = map[key];
    const name = scrubText(key);
    const next = item === undefined ? undefined : convert(item, ancestors);
    if (out === undefined && (next !== item || name !== key || item === undefined)) {
      out = {};
      for (let j = 0; j < i; j++) setOwn(out, keys[j], map[keys[j]]);
    }
    if (out !== undefined && next !== undefined) setOwn(out, name, next);
  }
  return out ?? map;
}

/**
 * `value` as plain JSON data: strings scrubbed of terminal controls, dates as ISO text (a date
 * at midnight UTC as `YYYY-MM-DD`), `Infinity`/`-Infinity`/`NaN` as those strings, big integers as
 * numbers when safe else text, `undefined` object entries dropped (`null` in arrays), any other
 * object as its text. An array or plain object in which nothing changes is returned as itself, else
 * as a copy with the changes (keys as own properties).
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
