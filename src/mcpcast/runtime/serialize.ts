/**
 * Parameter serialization per OpenAPI 3.1.1 ("Style Values" and the style examples table) and
 * Swagger 2 `collectionFormat`: path `simple`/`label`/`matrix`, query `form`/`spaceDelimited`/
 * `pipeDelimited`/`deepObject` (and Swagger 2 `tsv` as `tabDelimited`), header `simple`, cookie
 * `form`. Output is percent-encoded text ready for a URL, header or cookie; only RFC 3986 unreserved
 * characters are left as they are, plus the reserved ones when `allowReserved` is set (query only).
 *
 * Values nested inside an array or object (which the spec leaves undefined) are sent as JSON text,
 * except under `deepObject`, which nests brackets (`color[a][b]=1`, arrays indexed `color[0]=x`).
 *
 * @module
 */

import { PARAM_STYLES, type ParamStyle } from "../types.ts";

export { PARAM_STYLES, type ParamStyle };

/** How one value is serialized. */
export interface StyleOptions {
  /** The style. */
  style: ParamStyle;
  /** Whether arrays and objects are exploded. */
  explode: boolean;
  /** Query only: leave RFC 3986 reserved characters unencoded. @default false */
  allowReserved?: boolean;
}

/** The style and explode an OpenAPI 3 parameter in `location` has when the spec names neither. */
export function defaultStyle(location: "path" | "query" | "header" | "cookie" | "body"): StyleOptions {
  const style: ParamStyle = location === "path" || location === "header" ? "simple" : "form";
  return { style, explode: style === "form" };
}

const RESERVED = new Set(":/?#[]@!$&'()*+,;=");
const DELIMITER: Readonly<Record<string, string>> = {
  spaceDelimited: "%20",
  pipeDelimited: "%7C",
  tabDelimited: "%09",
};

/** `text` percent-encoded (UTF-8), leaving `A-Z a-z 0-9 - . _ ~`, and reserved characters when asked. */
export function percentEncode(text: string, allowReserved = false): string {
  let out = "";
  for (const char of text) {
    if (/[A-Za-z0-9\-._~]/.test(char) || (allowReserved && RESERVED.has(char))) out += char;
    else {
      for (const byte of new TextEncoder().encode(char)) {
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
      }
    }
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One scalar as text: strings as they are, numbers and booleans in JSON form, anything else as JSON. */
function scalarText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Array items (nulls dropped) or object entries (null values dropped) as text pairs. */
function entriesOf(value: unknown[] | Record<string, unknown>): Array<[string, string]> {
  if (Array.isArray(value)) {
    return value.filter((item) => item !== null && item !== undefined).map((item) => ["", scalarText(item)]);
  }
  return Object.entries(value).filter(([, item]) => item !== null && item !== undefined)
    .map(([key, item]) => [key, scalarText(item)]);
}

/**
 * The text that replaces `{name}` in a path template (`simple`, `label` or `matrix`).
 *
 * @example
 * ```ts
 * import { serializePath } from "./serialize.ts";
 * serializePath("color", ["blue", "black"], { style: "matrix", explode: true }); // ";color=blue;color=black"
 * ```
 */
export function serializePath(name: string, value: unknown, options: StyleOptions): string {
  const enc = (text: string) => percentEncode(text);
  const { style, explode } = options;
  const prefix = style === "label" ? "." : style === "matrix" ? ";" : "";
  if (value === undefined || value === null) return style === "matrix" ? `;${enc(name)}` : prefix;
  if (!Array.isArray(value) && !isRecord(value)) {
    const text = enc(scalarText(value));
    return style === "matrix" ? `;${enc(name)}${text === "" ? "" : `=${text}`}` : `${prefix}${text}`;
  }
  const pairs = entriesOf(value);
  const keyed = isRecord(value);
  if (style === "matrix") {
    if (!explode) return `;${enc(name)}=${listText(pairs, keyed, ",", enc)}`;
    return pairs.map(([key, item]) => `;${keyed ? enc(key) : enc(name)}=${enc(item)}`).join("");
  }
  if (!explode) return `${prefix}${listText(pairs, keyed, ",", enc)}`;
  const separator = style === "label" ? "." : ",";
  return prefix + pairs.map(([key, item]) => keyed ? `${enc(key)}=${enc(item)}` : enc(item)).join(separator);
}

/** `a,b,c` (array) or `k1,v1,k2,v2` (object), joined by `separator`. */
function listText(
  pairs: Array<[string, string]>,
  keyed: boolean,
  separator: string,
  enc: (text: string) => string,
): string {
  return pairs.flatMap(([key, item]) => keyed ? [enc(key), enc(item)] : [enc(item)]).join(separator);
}

/**
 * The query (or form body) pairs for one parameter, each `name=value` already percent-encoded; join
 * them with `&`. `undefined` and `null` give no pairs.
 *
 * @example
 * ```ts
 * import { serializeQuery } from "./serialize.ts";
 * serializeQuery("fields", ["a", "b"], { style: "form", explode: false }); // ["fields=a,b"]
 * ```
 */
export function serializeQuery(name: string, value: unknown, options: StyleOptions): string[] {
  if (value === undefined || value === null) return [];
  const enc = (text: string) => percentEncode(text, options.allowReserved === true);
  const key = percentEncode(name);
  if (options.style === "deepObject") return deepPairs(name, value).map(([k, v]) => `${k}=${enc(v)}`);
  if (!Array.isArray(value) && !isRecord(value)) return [`${key}=${enc(scalarText(value))}`];
  const pairs = entriesOf(value);
  const keyed = isRecord(value);
  const delimiter = DELIMITER[options.style];
  if (delimiter !== undefined) return [`${key}=${listText(pairs, keyed, delimiter, enc)}`];
  if (!options.explode) return [`${key}=${listText(pairs, keyed, ",", enc)}`];
  return pairs.map(([field, item]) => `${keyed ? percentEncode(field) : key}=${enc(item)}`);
}

/** deepObject pairs: `name[a]=1`, nested objects deeper, arrays indexed; brackets percent-encoded. */
function deepPairs(key: string, value: unknown): Array<[string, string]> {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => deepPairs(`${key}[${index}]`, item));
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([field, item]) => deepPairs(`${key}[${field}]`, item));
  }
  return [[percentEncode(key), scalarText(value)]];
}

/**
 * A header value (`simple`): `blue,black,brown`, `R,100,G,200` or, exploded, `R=100,G=200`. Header
 * values are not percent-encoded, except for characters a header cannot carry as they are: control
 * characters (line breaks included) and anything outside ASCII.
 */
export function serializeHeader(value: unknown, explode: boolean): string {
  const safe = (text: string) => text.replace(/[^\x20-\x7E]/gu, (char) => percentEncode(char));
  if (!Array.isArray(value) && !isRecord(value)) return safe(scalarText(value));
  const pairs = entriesOf(value);
  if (!isRecord(value)) return pairs.map(([, item]) => safe(item)).join(",");
  return pairs.map(([key, item]) => explode ? `${safe(key)}=${safe(item)}` : `${safe(key)},${safe(item)}`)
    .join(",");
}

/**
 * The `name=value` cookie pairs for one parameter (`form`): not exploded, one pair (`color=a,b`);
 * exploded, one pair per item (`color=a`, `color=b`) or per object entry (`R=100`). Join them with
 * `; ` into the Cookie header.
 */
export function serializeCookie(name: string, value: unknown, explode: boolean): string[] {
  return serializeQuery(name, value, { style: "form", explode });
}
