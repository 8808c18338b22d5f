/**
 * The HTTP request of one route: the URL, the header and cookie parameters, and the body (JSON,
 * form-encoded or multipart), each parameter serialized by its route's `style`/`explode`/
 * `allow_reserved` (OpenAPI defaults when absent: path and header `simple`, query, cookie and form
 * body fields `form` exploded; see `serialize.ts`). Absent and null values are omitted.
 *
 * Form bodies: each field by its style (`deepObject` gives Stripe's `metadata[k]=v`), or as JSON text
 * when its `content_type` is JSON. Multipart bodies: see `multipart.ts`.
 *
 * Body: a `raw_body` parameter is the whole body; otherwise a route that declares body parameters
 * sends an object of the ones given (`{}` when none was), except for GET and HEAD, which carry no
 * body. A null body value is sent only when the route requires that parameter.
 *
 * @module
 */

import { ToolError } from "../../tool_error.ts";
import type { RouteParam, RoutePlan } from "../plan/mod.ts";
import { multipartBody } from "./multipart.ts";
import {
  defaultStyle,
  percentEncode,
  serializeCookie,
  serializeHeader,
  serializePath,
  serializeQuery,
  type StyleOptions,
} from "./serialize.ts";

const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";

/** The URL and body of one upstream request. */
export interface RequestParts {
  /** Full URL, query included. */
  url: URL;
  /** Body text and its content type, when the request has one. */
  body?: { text: string; contentType: string };
  /** Header parameters (`simple`) and the `cookie` header (`form` pairs joined by `; `), when given. */
  headers?: Array<[name: string, value: string]>;
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

function wireName(name: string, param: RouteParam): string {
  return param.wire_name ?? name;
}

function styleOf(param: RouteParam, location: "path" | "query" | "body"): StyleOptions {
  const base = defaultStyle(location);
  const style = param.style ?? base.style;
  return { style, explode: param.explode ?? style === "form", allowReserved: param.allow_reserved === true };
}

function leaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (isRecord(value)) return Object.values(value).flatMap(leaves);
  return [value];
}

function pathText(name: string, param: RouteParam, value: unknown): string {
  if (value === undefined || value === null) throw invalid(`Missing required parameter '${name}'`);
  const options = styleOf(param, "path");
  const text = serializePath(wireName(name, param), value, options);
  const bad = text === "" || text === "." || text === ".." ||
    leaves(value).some((leaf) => typeof leaf === "string" && CONTROL.test(leaf)) ||
    (isScalar(value) && (String(value) === "" || String(value) === "." || String(value) === ".."));
  if (bad) {
    throw invalid(
      `Parameter '${name}' must be one real path segment (not empty, '.', '..' or control characters)`,
    );
  }
  return text;
}

function buildPath(route: RoutePlan, values: ReadonlyMap<string, unknown>): string {
  let path = route.path;
  for (const [name, param] of Object.entries(route.params)) {
    if (param.location !== "path") continue;
    const text = pathText(name, param, values.get(name));
    path = path.replaceAll(`{${wireName(name, param)}}`, () => text);
  }
  return path;
}

/** The `k=v` pairs of one form body field; a JSON content type sends the value as JSON text. */
function formPairs(key: string, value: unknown, param: RouteParam): string[] {
  if (param.content_type !== undefined && /json/i.test(param.content_type) && typeof value !== "string") {
    return [`${percentEncode(key)}=${percentEncode(JSON.stringify(value))}`];
  }
  return serializeQuery(key, value, styleOf(param, "body"));
}

const PLAIN: RouteParam = { location: "body", required: false };

function rawFormText(name: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([key, item]) => formPairs(key, item, PLAIN)).join("&");
  }
  throw invalid(`Parameter '${name}' must be an object or a string (the whole form body)`);
}

type Field = [key: string, value: unknown, param: RouteParam];

function bodyFields(route: RoutePlan, values: ReadonlyMap<string, unknown>): Field[] | undefined {
  const fields = Object.entries(route.params).filter(([, param]) => param.location === "body");
  if (fields.length === 0) return undefined;
  const out: Field[] = [];
  for (const [name, param] of fields) {
    const value = values.get(name);
    if (value === undefined || (value === null && !param.required)) continue;
    out.push([wireName(name, param), value, param]);
  }
  return out;
}

function buildBody(route: RoutePlan, values: ReadonlyMap<string, unknown>): RequestParts["body"] {
  if (route.method === "GET" || route.method === "HEAD") return undefined;
  const raw = Object.entries(route.params).find(([, param]) => param.location === "raw_body");
  const encoding = route.body_encoding;
  if (raw !== undefined) {
    const value = values.get(raw[0]);
    if (value === undefined) return undefined;
    if (encoding === "form") return { text: rawFormText(raw[0], value), contentType: FORM };
    if (encoding === "multipart") {
      if (!isRecord(value)) throw invalid(`Parameter '${raw[0]}' must be an object (the multipart fields)`);
      return multipartBody(Object.entries(value).map(([key, item]) => [key, item, PLAIN]));
    }
    return { text: JSON.stringify(value), contentType: JSON_TYPE };
  }
  const fields = bodyFields(route, values);
  if (fields === undefined) return undefined;
  if (encoding === "form") {
    return {
      text: fields.flatMap(([key, value, param]) => formPairs(key, value, param)).join("&"),
      contentType: FORM,
    };
  }
  if (encoding === "multipart") return multipartBody(fields);
  const object: Record<string, unknown> = {};
  for (const [key, value] of fields) Object.defineProperty(object, key, { value, enumerable: true });
  return { text: JSON.stringify(object), contentType: JSON_TYPE };
}

function buildHeaders(route: RoutePlan, values: ReadonlyMap<string, unknown>): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const cookies: string[] = [];
  for (const [name, param] of Object.entries(route.params)) {
    const value = values.get(name);
    if (value === undefined || value === null) continue;
    if (param.location === "header") {
      headers.push([wireName(name, param), serializeHeader(value, param.explode === true)]);
    }
    if (param.location === "cookie") {
      cookies.push(...serializeCookie(wireName(name, param), value, param.explode ?? true));
    }
  }
  if (cookies.length > 0) headers.push(["cookie", cookies.join("; ")]);
  return headers;
}

/**
 * The URL, body and header parameters for `route` with `values` (by tool parameter name), under `baseUrl` (no trailing
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
  const query = Object.entries(route.params).filter(([, param]) => param.location === "query")
    .flatMap(([name, param]) =>
      serializeQuery(wireName(name, param), values.get(name), styleOf(param, "query"))
    );
  if (query.length > 0) url.search = query.join("&");
  const body = buildBody(route, values);
  const headers = buildHeaders(route, values);
  return { url, ...(body === undefined ? {} : { body }), ...(headers.length === 0 ? {} : { headers }) };
}
