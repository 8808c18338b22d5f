/**
 * How a parameter or body property is serialized, read from the spec: OpenAPI 3 `style`, `explode`
 * and `allowReserved`, Swagger 2 `collectionFormat` (csv, ssv, tsv, pipes, multi; csv when an array
 * names none), and an `encoding` entry of a form or multipart body (`contentType`, `style`,
 * `explode`, `allowReserved`). Only what differs from the location's default is kept, so plans of
 * APIs that use the defaults stay as they were.
 *
 * @module
 */

import { PARAM_STYLES, type ParamSpec, type ParamStyle } from "../types.ts";
import { isMapping, type SpecMapping } from "../_spec_values.ts";

/** The serialization fields of a {@linkcode ParamSpec}. */
export type WireStyle = Pick<ParamSpec, "style" | "explode" | "allowReserved" | "contentType">;

type StyleLocation = "path" | "query" | "header" | "cookie" | "body";

/** OpenAPI 3 styles (`tabDelimited` is Swagger 2's `tsv`, never written in an OpenAPI 3 spec). */
const STYLES: ReadonlySet<string> = new Set<ParamStyle>(
  PARAM_STYLES.filter((style) => style !== "tabDelimited"),
);

const COLLECTION_FORMATS: Readonly<Record<string, ParamStyle>> = {
  ssv: "spaceDelimited",
  tsv: "tabDelimited",
  pipes: "pipeDelimited",
};

function defaults(location: StyleLocation): { style: ParamStyle; explode: boolean } {
  const style: ParamStyle = location === "path" || location === "header" ? "simple" : "form";
  return { style, explode: style === "form" };
}

/**
 * `style` kept where it differs from the location's default, `explode` where it differs from the
 * style's default (true for `form`, else false), as the runtime reads them.
 */
function differing(location: StyleLocation, style: ParamStyle, explode: boolean): WireStyle {
  const out: WireStyle = {};
  if (style !== defaults(location).style) out.style = style;
  if (explode !== (style === "form")) out.explode = explode;
  return out;
}

/** Swagger 2 `collectionFormat` as a style (csv: `form`/`simple` not exploded; multi: `form` exploded). */
function fromCollectionFormat(format: unknown, location: StyleLocation): WireStyle {
  const name = typeof format === "string" ? format : "csv";
  if (name === "multi") return differing(location, "form", true);
  const style = COLLECTION_FORMATS[name] ??
    (location === "path" || location === "header" ? "simple" : "form");
  return differing(location, style, false);
}

/**
 * The wire style of a parameter entry in `location` (`body` for a Swagger 2 `formData` parameter).
 * A Swagger 2 array (inline `type: array`, no `schema`) uses `collectionFormat`; an OpenAPI 3
 * parameter its `style`, `explode` (default true for `form` only) and `allowReserved`.
 */
export function paramStyle(entry: SpecMapping, location: StyleLocation): WireStyle {
  if (entry.schema === undefined && entry.content === undefined && entry.type === "array") {
    return fromCollectionFormat(entry.collectionFormat, location);
  }
  return styleFields(entry, location);
}

function styleFields(entry: SpecMapping, location: StyleLocation): WireStyle {
  const style = typeof entry.style === "string" && STYLES.has(entry.style)
    ? entry.style as ParamStyle
    : defaults(location).style;
  const explode = typeof entry.explode === "boolean" ? entry.explode : style === "form";
  const out = differing(location, style, explode);
  if (entry.allowReserved === true && location !== "path" && location !== "header") out.allowReserved = true;
  return out;
}

/**
 * The wire style of one body property from a form or multipart `encoding` entry: its
 * `contentType`, and (form bodies) `style`, `explode`, `allowReserved`.
 */
export function encodingStyle(entry: unknown, multipart: boolean): WireStyle {
  if (!isMapping(entry)) return {};
  const out: WireStyle = multipart ? {} : styleFields(entry, "body");
  if (typeof entry.contentType === "string" && entry.contentType.trim() !== "") {
    out.contentType = entry.contentType.trim();
  }
  return out;
}
