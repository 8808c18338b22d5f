/**
 * Canonical JSON: one text per value, so an HMAC over it can be recomputed from the parsed line.
 *
 * - Object keys are sorted (by UTF-16 code units) at every depth; no whitespace.
 * - `undefined` object members are dropped; `undefined` in an array becomes `null`.
 * - Values JSON cannot hold are stringified: bigints (`"12"`), non-finite numbers (`"NaN"`,
 *   `"Infinity"`), errors (`"TypeError: bad"`), symbols (`"Symbol(x)"`), functions (`"[Function f]"`).
 * - `toJSON()` is honoured (dates become ISO strings); maps become objects keyed by `String(key)`,
 *   sets become arrays; cycles become `"[Circular]"` and nesting past 64 levels `"[MaxDepth]"`.
 *
 * Parsing a canonical text and canonicalising it again gives the same text, which is what the audit
 * verifier relies on.
 *
 * @module
 */

/** A value JSON can hold. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const MAX_DEPTH = 64;

/**
 * `value` as canonical JSON text (sorted keys, no whitespace, non-JSON values stringified).
 *
 * @example
 * ```ts
 * import { canonicalJson } from "./canonical_json.ts";
 * canonicalJson({ b: 1, a: [2n, undefined] }); // '{"a":["2",null],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  return encode(value, new Set(), 0) ?? "null";
}

/** `value` reduced to plain JSON data, exactly as {@linkcode canonicalJson} writes it. */
export function toCanonical(value: unknown): JsonValue {
  return JSON.parse(canonicalJson(value));
}

function encode(value: unknown, seen: Set<object>, depth: number): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value));
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return JSON.stringify(value.toString());
    case "symbol":
      return JSON.stringify(value.toString());
    case "function":
      return JSON.stringify(`[Function ${value.name || "anonymous"}]`);
    case "undefined":
      return undefined;
  }
  if (value === null) return "null";
  const object = value as object;
  if (seen.has(object)) return JSON.stringify("[Circular]");
  if (depth >= MAX_DEPTH) return JSON.stringify("[MaxDepth]");
  seen.add(object);
  try {
    return encodeObject(object, seen, depth + 1);
  } finally {
    seen.delete(object);
  }
}

function encodeObject(object: object, seen: Set<object>, depth: number): string | undefined {
  const toJson = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJson === "function") return encode(toJson.call(object), seen, depth);
  if (object instanceof Error) return JSON.stringify(`${object.name}: ${object.message}`);
  if (Array.isArray(object) || object instanceof Set) {
    const items = Array.from(object as Iterable<unknown>, (item) => encode(item, seen, depth) ?? "null");
    return `[${items.join(",")}]`;
  }
  if (object instanceof Map) return encodeMap(object, seen, depth);
  const record = object as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = "{";
  for (const key of keys) {
    const text = encode(record[key], seen, depth);
    if (text === undefined) continue;
    out += `${out.length === 1 ? "" : ","}${JSON.stringify(key)}:${text}`;
  }
  return `${out}}`;
}

function encodeMap(map: Map<unknown, unknown>, seen: Set<object>, depth: number): string {
  const pairs: Array<[string, unknown]> = Array.from(map, ([key, item]) => [String(key), item]);
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const members: string[] = [];
  let last: string | undefined;
  for (const [key, item] of pairs) {
    if (key === last) continue;
    last = key;
    const text = encode(item, seen, depth);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(",")}}`;
}
