/**
 * Request bodies → body parameters: the media type preference, flattening an object schema into one
 * parameter per property, the empty-object rule and the whole-body (`raw_body`) rule.
 *
 * A body is flattened only when nothing is lost: an object whose own rules span several properties
 * (`oneOf`, `anyOf`, `not`, `if`, `dependentRequired`, `dependencies`: "give `id`, or `owner` + `repo`
 * + `number`") stays one `body` argument carrying the whole schema, so the agent sees, and the
 * validator checks, those rules. A body with no schema (`{}` or none) is a free-form `body` object,
 * required when the body is. The body's description is kept: on the `body` argument, or, for a
 * flattened body, in {@linkcode BodyParams.description}. The media type's own example (`example`, or
 * the first of `examples`) becomes the `body` argument's example when its schema has none.
 *
 * @module
 */

import { malformed, throwRefProblems } from "./operation_defect.ts";
import type { RefResolver } from "./refs.ts";
import type { BodyEncoding, JsonSchema, ParamSpec } from "../types.ts";
import { isMapping, type SpecMapping, trimmedString } from "../_spec_values.ts";
import { encodingStyle } from "./param_style.ts"; // slice C: serialization

const JSON_MEDIA = "application/json";
const FORM_MEDIA = "application/x-www-form-urlencoded";
const MULTIPART_MEDIA = "multipart/form-data"; // slice C
const COMPOSITE_KEYS = [
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "items",
  "additionalProperties",
  "patternProperties",
];
/** Rules across properties that flattening into one parameter per property would lose. */
const CROSS_PROPERTY_KEYS = ["oneOf", "anyOf", "not", "if", "dependentRequired", "dependencies"];
/** The schema of a body the spec does not describe. */
const FREE_FORM: JsonSchema = { type: "object" };

/** Body parameters and how they are encoded. */
export interface BodyParams {
  /** One per property of an object body, a single `raw_body` parameter, or none. */
  params: ParamSpec[];
  /** `form` for `application/x-www-form-urlencoded`, `multipart` for `multipart/form-data`, else `json`. */
  encoding: BodyEncoding;
  /** Why the body cannot be sent, when only unsupported media types are offered. */
  unsupported?: string;
  /** The body's description when it was flattened (no `body` argument carries it). */
  description?: string;
}

/**
 * The key of the preferred media type of a `content` mapping: `application/json`, then
 * `application/x-www-form-urlencoded`, then the first containing "json" (`+json` included), then
 * `multipart/form-data`.
 */
export function preferredMedia(content: SpecMapping): string | undefined {
  const keys = Object.keys(content);
  const bare = (key: string) => key.split(";")[0].trim().toLowerCase();
  return keys.find((key) => bare(key) === JSON_MEDIA) ?? keys.find((key) => bare(key) === FORM_MEDIA) ??
    keys.find((key) => key.toLowerCase().includes("json")) ??
    keys.find((key) => bare(key) === MULTIPART_MEDIA);
}

/**
 * The body parameters of an OpenAPI 3 `requestBody`. Throws `OperationDefect` for a malformed
 * body or an unresolvable reference.
 */
export function requestBodyParams(requestBody: unknown, resolver: RefResolver): BodyParams {
  if (requestBody === undefined || requestBody === null) return { params: [], encoding: "json" };
  const followed = resolver.follow(requestBody);
  throwRefProblems(followed.problem ? [followed.problem] : []);
  const body = followed.value;
  if (!isMapping(body)) throw malformed("requestBody", "mapping", body);
  const content = body.content;
  if (content === undefined || content === null) return { params: [], encoding: "json" };
  if (!isMapping(content)) throw malformed("requestBody.content", "mapping", content);
  if (Object.keys(content).length === 0) return { params: [], encoding: "json" };
  const media = preferredMedia(content);
  if (media === undefined) {
    const offered = Object.keys(content).sort().join(", ");
    return { params: [], encoding: "json", unsupported: `unsupported request body media type ${offered}` };
  }
  const bare = media.split(";")[0].trim().toLowerCase();
  const encoding: BodyEncoding = bare === FORM_MEDIA
    ? "form"
    : bare === MULTIPART_MEDIA
    ? "multipart"
    : "json";
  const entry = content[media];
  if (!isMapping(entry)) throw malformed(`requestBody.content['${media}']`, "mapping", entry);
  const options = {
    required: body.required === true,
    description: trimmedString(body, "description"),
    example: mediaExample(entry, resolver),
  };
  if (entry.schema === undefined || entry.schema === null) {
    return withBodyDescription(flattenBody({}, options), encoding, options.description);
  }
  if (!isMapping(entry.schema)) {
    throw malformed(`requestBody.content['${media}'].schema`, "mapping", entry.schema);
  }
  const resolved = resolver.resolve(entry.schema);
  throwRefProblems(resolved.problems);
  const params = flattenBody(resolved.value as JsonSchema, options);
  // slice C: per-property `encoding` (contentType, style, explode, allowReserved) of form and multipart bodies.
  if (encoding !== "json" && isMapping(entry.encoding)) {
    const perProperty = entry.encoding;
    for (const param of params) {
      if (param.location === "body") {
        Object.assign(param, encodingStyle(perProperty[param.wireName], encoding === "multipart"));
      }
    }
  }
  if (encoding === "multipart") {
    // slice C: binary strings default to application/octet-stream (sent as file parts).
    for (const param of params) {
      if (param.contentType === undefined && param.schema.format === "binary") {
        param.contentType = "application/octet-stream";
      }
    }
  }
  return withBodyDescription(params, encoding, options.description);
}

function withBodyDescription(
  params: ParamSpec[],
  encoding: BodyParams["encoding"],
  description: string | undefined,
): BodyParams {
  const flattened = params.length > 0 && params.every((param) => param.location === "body");
  return flattened && description !== undefined ? { params, encoding, description } : { params, encoding };
}

/** The media type's own example: its `example`, else the `value` of the first of its `examples`. */
function mediaExample(entry: SpecMapping, resolver: RefResolver): unknown {
  if (entry.example !== undefined && entry.example !== null) return entry.example;
  if (!isMapping(entry.examples)) return undefined;
  for (const item of Object.values(entry.examples)) {
    const followed = resolver.follow(item);
    if (isMapping(followed.value) && followed.value.value !== undefined && followed.value.value !== null) {
      return followed.value.value;
    }
  }
  return undefined;
}

/**
 * Body parameters for a resolved body schema (its `readOnly` properties dropped): one `body`
 * parameter per property of an object schema with properties and no rule across properties (see the
 * module documentation); none for an object with empty `properties` and no combinators, `items` or
 * `additionalProperties`; a free-form `body` object for an empty schema; else a single `body`
 * parameter of location `raw_body` carrying the whole schema (with `example`, when given and the
 * schema has none).
 */
export function flattenBody(
  schema: JsonSchema,
  options: { required: boolean; description?: string; example?: unknown },
): ParamSpec[] {
  const body = stripReadOnly(schema);
  const properties = body.properties;
  const type = body.type;
  const objectType = type === undefined || type === "object" ||
    (Array.isArray(type) && type.includes("object"));
  const crossProperty = CROSS_PROPERTY_KEYS.some((key) => key in body);
  if (objectType && isMapping(properties) && !crossProperty) {
    const names = Object.keys(properties);
    const required = Array.isArray(body.required) ? body.required : [];
    if (names.length > 0) {
      return names.map((name) => {
        const property = isMapping(properties[name]) ? properties[name] as JsonSchema : {};
        return withDescription(
          { name, wireName: name, location: "body", required: required.includes(name), schema: property },
          trimmedString(property, "description"),
        );
      });
    }
    if (!COMPOSITE_KEYS.some((key) => key in body)) return [];
  }
  const whole = Object.keys(body).length === 0 ? { ...FREE_FORM } : body;
  if (options.example !== undefined && whole.example === undefined && whole.examples === undefined) {
    whole.example = options.example;
  }
  return [withDescription(
    { name: "body", wireName: "body", location: "raw_body", required: options.required, schema: whole },
    options.description ?? trimmedString(body, "description"),
  )];
}

/** `param` with `description` set when there is one. */
export function withDescription(param: ParamSpec, description: string | undefined): ParamSpec {
  if (description !== undefined) param.description = description;
  return param;
}

/**
 * `schema` without `readOnly: true` properties, at any depth (properties, items, combinators,
 * additionalProperties), each also removed from its `required` list. Modifies fresh schemas from the
 * resolver in place and returns the same object.
 */
export function stripReadOnly(schema: JsonSchema): JsonSchema {
  const stack: SpecMapping[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const properties = node.properties;
    if (isMapping(properties)) {
      const dropped = Object.keys(properties).filter((name) =>
        isMapping(properties[name]) && (properties[name] as SpecMapping).readOnly === true
      );
      for (const name of dropped) delete properties[name];
      if (dropped.length > 0 && Array.isArray(node.required)) {
        node.required = node.required.filter((name) => !dropped.includes(name as string));
      }
      for (const name of Object.keys(properties)) pushSchema(stack, properties[name]);
    }
    pushSchema(stack, node.items);
    pushSchema(stack, node.additionalProperties);
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      const list = node[key];
      if (Array.isArray(list)) { for (const item of list) pushSchema(stack, item); }
    }
  }
  return schema;
}

function pushSchema(stack: SpecMapping[], value: unknown): void {
  if (Array.isArray(value)) { for (const item of value) pushSchema(stack, item); }
  else if (isMapping(value)) stack.push(value);
}
