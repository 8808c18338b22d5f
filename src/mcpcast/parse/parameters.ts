/**
 * Operation parameters: merging path-level and operation-level lists, Swagger 2 `in: body` and
 * `in: formData`, parameter schemas, and the name-collision renames between locations.
 *
 * @module
 */

import { malformed, throwRefProblems } from "./operation_defect.ts";
import { cloneData, type RefResolver } from "./refs.ts";
import { flattenBody, withDescription } from "./request_body.ts";
import type { BodyEncoding, JsonSchema, ParamLocation, ParamSpec } from "../types.ts";
import { isMapping, type SpecMapping, trimmedString } from "../_spec_values.ts";
import { paramStyle } from "./param_style.ts"; // slice C: serialization

/** Swagger 2 parameter keywords that make up a parameter's schema when it has no `schema`. */
const INLINE_KEYWORDS = [
  "type",
  "format",
  "enum",
  "default",
  "items",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "x-nullable",
];

/** Parameters collected from the `parameters` lists. */
export interface CollectedParams {
  /** Path, query, header and cookie parameters, plus Swagger 2 body and form parameters. */
  params: ParamSpec[];
  /**
   * With Swagger 2 `formData` parameters: `multipart` for a file parameter or when `consumes` offers
   * `multipart/form-data` and not `application/x-www-form-urlencoded`, else `form`; otherwise `json`.
   */
  encoding: BodyEncoding;
}

const FORM_MEDIA = "application/x-www-form-urlencoded";
const MULTIPART_MEDIA = "multipart/form-data";

/** Whether a Swagger 2 `consumes` list asks for multipart rather than url-encoded form data. */
function consumesMultipart(consumes: unknown): boolean {
  if (!Array.isArray(consumes)) return false;
  const types = consumes.filter((item) => typeof item === "string").map((item) =>
    item.split(";")[0].trim().toLowerCase()
  );
  return types.includes(MULTIPART_MEDIA) && !types.includes(FORM_MEDIA);
}

/**
 * The parameters of an operation: the path item's `parameters`, overridden by the operation's with
 * the same (name, in). Throws `OperationDefect` for a malformed list or an unresolvable reference.
 */
export function collectParameters(
  pathLevel: unknown,
  operationLevel: unknown,
  resolver: RefResolver,
  options: { consumes?: unknown } = {},
): CollectedParams {
  const merged = new Map<string, SpecMapping>();
  for (const [list, where] of [[pathLevel, "path parameters"], [operationLevel, "parameters"]] as const) {
    for (const entry of parameterEntries(list, where, resolver)) {
      merged.set(`${entry.in}\u0000${entry.name}`, entry);
    }
  }
  const params: ParamSpec[] = [];
  let encoding: BodyEncoding = "json";
  for (const entry of merged.values()) {
    const name = entry.name as string;
    const place = entry.in as string;
    const description = trimmedString(entry, "description");
    if (place === "body") {
      if (!isMapping(entry.schema)) throw malformed(`parameter '${name}' schema`, "mapping", entry.schema);
      const resolved = resolver.resolve(entry.schema);
      throwRefProblems(resolved.problems);
      params.push(
        ...flattenBody(resolved.value as JsonSchema, { required: entry.required === true, description }),
      );
    } else if (place === "formData") {
      // slice C: a file parameter is a multipart file part (its content given as text).
      const file = entry.type === "file";
      if (file || consumesMultipart(options.consumes)) encoding = "multipart";
      else if (encoding === "json") encoding = "form";
      const param = plainParam(
        file ? { ...entry, type: "string", format: "binary" } : entry,
        "body",
        resolver,
      );
      params.push(file ? { ...param, contentType: "application/octet-stream" } : param);
    } else if (place === "path" || place === "query" || place === "header" || place === "cookie") {
      params.push(plainParam(entry, place, resolver));
    }
  }
  return { params, encoding };
}

function parameterEntries(list: unknown, where: string, resolver: RefResolver): SpecMapping[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw malformed(where, "list", list);
  return list.map((item, index) => {
    const followed = resolver.follow(item);
    throwRefProblems(followed.problem ? [followed.problem] : []);
    const entry = followed.value;
    if (!isMapping(entry)) throw malformed(`${where}[${index}]`, "mapping", entry);
    for (const key of ["name", "in"]) {
      if (typeof entry[key] !== "string") throw malformed(`${where}[${index}].${key}`, "string", entry[key]);
    }
    return entry;
  });
}

function plainParam(entry: SpecMapping, location: ParamLocation, resolver: RefResolver): ParamSpec {
  const name = entry.name as string;
  const schema = parameterSchema(entry, name, resolver);
  return withDescription(
    {
      name,
      wireName: name,
      location,
      required: location === "path" || entry.required === true,
      schema,
      ...paramStyle(entry, location === "raw_body" ? "body" : location), // slice C: serialization
    },
    trimmedString(entry, "description") ?? trimmedString(schema, "description"),
  );
}

/**
 * A parameter's schema: `schema`, else the first JSON entry of `content`, else the Swagger 2 inline
 * keywords, else `{type: "string"}`; the parameter's `example` copied in when the schema has none.
 */
function parameterSchema(entry: SpecMapping, name: string, resolver: RefResolver): JsonSchema {
  let source: SpecMapping | undefined;
  if (entry.schema !== undefined && entry.schema !== null) {
    if (!isMapping(entry.schema)) throw malformed(`parameter '${name}' schema`, "mapping", entry.schema);
    source = entry.schema;
  } else if (isMapping(entry.content)) {
    const content = entry.content;
    const media = Object.keys(content).find((key) => key.toLowerCase().includes("json"));
    const mediaEntry = media === undefined ? undefined : content[media];
    if (isMapping(mediaEntry) && isMapping(mediaEntry.schema)) source = mediaEntry.schema;
  }
  if (source === undefined) {
    const inline: SpecMapping = {};
    for (const key of INLINE_KEYWORDS) if (entry[key] !== undefined) inline[key] = entry[key];
    source = Object.keys(inline).length > 0 ? inline : { type: "string" };
  }
  const resolved = resolver.resolve(source);
  throwRefProblems(resolved.problems);
  const schema = (isMapping(resolved.value) ? resolved.value : {}) as JsonSchema;
  if (entry.example !== undefined && schema.example === undefined) {
    schema.example = cloneData(entry.example);
  }
  return schema;
}

const TIERS: Readonly<Record<ParamLocation, number>> = {
  path: 0,
  query: 1,
  body: 2,
  raw_body: 2,
  header: 3,
  cookie: 4,
};

/**
 * Parameters in path, query, body order (header and cookie last), with collisions renamed: the first
 * of path > query > body keeps a name, a later one becomes `<location>_<name>` (`body_<name>` for a
 * body or raw body, `header_<name>`, `cookie_<name>`; numbered when that is taken too) and keeps its
 * wire name. Header and cookie parameters come last and yield to the others.
 */
export function arrangeParams(params: readonly ParamSpec[]): ParamSpec[] {
  const ordered = params.map((param, index) => ({ param, index })).sort((a, b) =>
    TIERS[a.param.location] - TIERS[b.param.location] || a.index - b.index
  ).map(({ param }) => param);
  const taken = new Set<string>();
  return ordered.map((param) => {
    if (!taken.has(param.name)) {
      taken.add(param.name);
      return param;
    }
    const prefix = param.location === "raw_body" ? "body" : param.location;
    let candidate = `${prefix}_${param.name}`;
    for (let n = 2; taken.has(candidate); n++) candidate = `${prefix}_${param.name}_${n}`;
    taken.add(candidate);
    return { ...param, name: candidate };
  });
}
