/**
 * `multipart/form-data` bodies (RFC 7578) per OpenAPI 3.1: one part per property; an array of
 * scalars is one part per item under the same name; an object (or an array holding objects) is one
 * `application/json` part; a scalar is `text/plain` unless the property's `encoding.contentType`
 * says otherwise. A property with a content type other than text or JSON is sent as a file part
 * (`filename` set to its name), its value as text.
 *
 * @module
 */

import type { RouteParam } from "../plan/mod.ts";

/** A multipart body's text and its content type (boundary included). */
export interface MultipartBody {
  /** The body text. */
  text: string;
  /** `multipart/form-data; boundary=…`. */
  contentType: string;
}

function quoted(name: string): string {
  return name.replace(/[\r\n"\\]/g, (char) => encodeURIComponent(char));
}

function isScalar(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function part(name: string, value: unknown, declared: string | undefined): string {
  const json = declared === undefined ? !isScalar(value) : /json/i.test(declared);
  const type = declared ?? (json ? "application/json" : "text/plain");
  const text = typeof value === "string" && !(json && declared === undefined)
    ? value
    : json
    ? JSON.stringify(value)
    : String(value);
  const file = !/^text\//i.test(type) && !json;
  const disposition = `form-data; name="${quoted(name)}"${file ? `; filename="${quoted(name)}"` : ""}`;
  const headers = [`Content-Disposition: ${disposition}`];
  if (!/^text\/plain$/i.test(type)) headers.push(`Content-Type: ${type}`);
  return `${headers.join("\r\n")}\r\n\r\n${text}`;
}

/**
 * The multipart body of `fields` (wire name, value, route parameter), with a fresh random boundary.
 *
 * @example
 * ```ts
 * import { multipartBody } from "./multipart.ts";
 * multipartBody([["note", "hi", { location: "body", required: false }]]).contentType.startsWith("multipart/form-data; boundary=");
 * // true
 * ```
 */
export function multipartBody(fields: ReadonlyArray<[string, unknown, RouteParam]>): MultipartBody {
  const boundary = `mcpcast-${crypto.randomUUID()}`;
  const parts: string[] = [];
  for (const [name, value, param] of fields) {
    if (value === undefined) continue;
    const items = Array.isArray(value) && value.every((item) => item === null || isScalar(item))
      ? value.filter((item) => item !== null)
      : [value];
    for (const item of items) parts.push(part(name, item, param.content_type));
  }
  const text = parts.map((body) => `--${boundary}\r\n${body}\r\n`).join("") + `--${boundary}--\r\n`;
  return { text, contentType: `multipart/form-data; boundary=${boundary}` };
}
