/**
 * The HTTP request of one route: the URL (path parameters percent-encoded as single segments, query
 * parameters in their wire names) and the body (JSON, or form-encoded with bracket notation).
 *
 * Query encoding: null omitted; booleans `true`/`false`; arrays of scalars repeated (`k=a&k=b`);
 * arrays of objects indexed (`k[0][a]=1`); objects deepObject (`k[a][b]=v`). Form bodies use the
 * same bracket notation, arrays always indexed (`line_items[0][price]=…`, Stripe style).
 *
 * Body: a `raw_body` parameter is the whole body; otherwise a route that declares body parameters
 * sends an object of the ones given (`{}` when none was), except for GET and HEAD, which carry no
 * body. A null body value is sent only when the route requires that parameter.
 *
 * @module
 */

import { ToolError } from "../../tool_error.ts";
import type { RouteParam, RoutePlan } from "../plan/mod.ts";

/** The URL and body of one upstream request. */
export interface RequestParts {
  /** Full URL, query included. */
  url: URL;
  /** Body text and its content type, when the request has one. */
  body?: { text: string; contentType: string };
}

type Scalar = string | number | boolean;

// C0 controls, DEL and C1 controls: a path segment carrying one is refused.
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1F\x7F-\x9F]/;

function isScalar(value: unknown): value is Scalar {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string): ToolError {
  return new ToolError("VALIDATION_ERROR", message);
}

/** `text` percent-encoded with no character left as is but `A-Z a-z 0-9 - _ . ~`. */
export function encodeSegment(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function segmentOf(name: string, value: unknown): string {
  if (value === undefined || value === null) throw invalid(`Missing required parameter '${name}'`);
  if (!isScalar(value)) throw invalid(`Parameter '${name}' must be a string or a number (one path segment)`);
  const text = String(value);
  if (text === "" || text === "." || text === ".." || CONTROL.test(text)) {
    throw invalid(
      `Parameter '${name}' must be one real path segment (not empty, '.', '..' or control characters)`,
    );
  }
  return encodeSegment(text);
}

function wireName(name: string, param: RouteParam): string {
  return param.wire_name ?? name;
}

/** Pairs for `value` under `key` in bracket notation; `repeatScalars` sends scalar arrays as `k=a&k=b`. */
export function flatten(key: string, value: unknown, repeatScalars: boolean): Array<[string, string]> {
  if (value === undefined || value === null) return [];
  if (isScalar(value)) return [[key, String(value)]];
  if (Array.isArray(value)) {
    if (repeatScalars && value.every((item) => item === null || isScalar(item))) {
      return value.filter((item) => item !== null).map((item) => [key, String(item)]);
    }
    return value.flatMap((item, index) => flatten(`${key}[${index}]`, item, repeatScalars));
  }
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([field, item]) => flatten(`${key}[${field}]`, item, repeatScalars));
  }
  return [];
}

function formText(pairs: Array<[string, unknown]>): string {
  return new URLSearchParams(pairs.flatMap(([key, value]) => flatten(key, value, false))).toString();
}

function rawFormText(name: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (isRecord(value)) return formText(Object.entries(value));
  throw invalid(`Parameter '${name}' must be an object or a string (the whole form body)`);
}

function buildPath(route: RoutePlan, values: ReadonlyMap<string, unknown>): string {
  let path = route.path;
  for (const [name, param] of Object.entries(route.params)) {
    if (param.location !== "path") continue;
    const segment = segmentOf(name, values.get(name));
    path = path.replaceAll(`{${wireName(name, param)}}`, () => segment);
  }
  return path;
}

function buildBody(route: RoutePlan, values: ReadonlyMap<string, unknown>): RequestParts["body"] {
  if (route.method === "GET" || route.method === "HEAD") return undefined;
  const entries = Object.entries(route.params);
  const raw = entries.find(([, param]) => param.location === "raw_body");
  const form = route.body_encoding === "form";
  const contentType = form ? "application/x-www-form-urlencoded" : "application/json";
  if (raw !== undefined) {
    const value = values.get(raw[0]);
    if (value === undefined) return undefined;
    if (form) return { text: rawFormText(raw[0], value), contentType };
    return { text: JSON.stringify(value), contentType };
  }
  const fields = entries.filter(([, param]) => param.location === "body");
  if (fields.length === 0) return undefined;
  const body: Array<[string, unknown]> = [];
  for (const [name, param] of fields) {
    const value = values.get(name);
    if (value === undefined || (value === null && !param.required)) continue;
    body.push([wireName(name, param), value]);
  }
  if (form) return { text: formText(body), contentType };
  const object: Record<string, unknown> = {};
  for (const [key, value] of body) Object.defineProperty(object, key, { value, enumerable: true });
  return { text: JSON.stringify(object), contentType };
}

/**
 * The URL and body for `route` with `values` (by tool parameter name), under `baseUrl` (no trailing
 * slash).
 *
 * @throws {ToolError} `VALIDATION_ERROR` for a missing path parameter or one that is not a single
 * real segment.
 *
 * @example
 * ```ts
 * import { buildRequestParts } from "./request_build.ts";
 * const route = {
 *   operation_id: "getPet", method: "GET" as const, path: "/pets/{petId}", body_encoding: "json" as const,
 *   params: { petId: { location: "path" as const, required: true }, tags: { location: "query" as const, required: false } },
 * };
 * buildRequestParts(route, new Map<string, unknown>([["petId", "a/b"], ["tags", ["x", "y"]]]), "https://api.example.com/v1").url.href;
 * // "https://api.example.com/v1/pets/a%2Fb?tags=x&tags=y"
 * ```
 */
export function buildRequestParts(
  route: RoutePlan,
  values: ReadonlyMap<string, unknown>,
  baseUrl: string,
): RequestParts {
  const url = new URL(`${baseUrl}${buildPath(route, values)}`);
  for (const [name, param] of Object.entries(route.params)) {
    if (param.location !== "query") continue;
    for (const [key, item] of flatten(wireName(name, param), values.get(name), true)) {
      url.searchParams.append(key, item);
    }
  }
  const body = buildBody(route, values);
  return body === undefined ? { url } : { url, body };
}
