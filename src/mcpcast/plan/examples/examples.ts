/**
 * Worked examples for tools: one plausible value per parameter, from the spec's own `example`,
 * `default` or first `examples` entry when it fits the declared type (coerced across obvious slips) and
 * keeps its bounds, else synthesised from enum, combinators, type, format and parameter name, then
 * fitted to the schema's `pattern`, string lengths and `minItems`. Also
 * {@linkcode exampleMismatch}, the shallow check used to repair examples written by a model.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { withinBounds } from "./example_bounds.ts";
import { jsonNative } from "../json_native.ts";
import { patternExample } from "./pattern_example.ts";
import { cleanSchema, schemaProblem } from "../../runtime/internal.ts";
import { toolExampleProblem } from "./example_check.ts";
import type { ParamPlan } from "../types.ts";
import type { JsonSchema } from "../../types.ts";

/** Nesting depth past which objects and arrays are exampled as `{}` and `[]`. */
const MAX_EXAMPLE_DEPTH = 8;
/** Most items an example array is grown to for `minItems`. */
const MAX_EXAMPLE_ITEMS = 10;

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  "date-time": "2026-01-15T09:30:00Z",
  date: "2026-01-15",
  email: "ada@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema's declared type (the first non-null one of a list), or undefined. */
function declaredType(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    return type.find((item): item is string => typeof item === "string" && item !== "null");
  }
  return undefined;
}

function nullable(schema: JsonSchema): boolean {
  return schema.nullable === true || schema["x-nullable"] === true ||
    (Array.isArray(schema.type) && schema.type.includes("null"));
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value === "object" ? "object" : typeof value;
}

function fitsType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    default:
      return true;
  }
}

/**
 * Why `value` does not fit `schema`, or undefined when it plausibly does: a shallow check of the
 * declared type (a boolean is not a number), enum membership, object keys the schema does not
 * declare (unless `additionalProperties` allows them) and, recursively, the first array item. The
 * message names field names, never values.
 *
 * @example
 * ```ts
 * import { exampleMismatch } from "./examples.ts";
 * exampleMismatch(true, { type: "integer" }); // "is a boolean but the API declares integer"
 * exampleMismatch({ sku: "a", qty: 1 }, { type: "object", properties: { sku: {} } });
 * // "uses fields 'qty' the API does not declare"
 * ```
 */
export function exampleMismatch(value: unknown, schema: JsonSchema): string | undefined {
  const type = declaredType(schema);
  if (value === null && nullable(schema)) return undefined;
  if (type !== undefined && !fitsType(value, type)) {
    return `is a ${kindOf(value)} but the API declares ${type}`;
  }
  const members = schema.enum;
  if (Array.isArray(members) && members.length > 0 && !members.some((m) => isDeepStrictEqual(m, value))) {
    return "is not one of the declared values";
  }
  const props = schema.properties;
  const extraAllowed = schema.additionalProperties === true || isRecord(schema.additionalProperties);
  if (isRecord(value) && isRecord(props) && !extraAllowed) {
    const unknown = Object.keys(value).filter((key) => !Object.hasOwn(props, key));
    if (unknown.length > 0) {
      return `uses fields ${unknown.map((key) => `'${key}'`).join(", ")} the API does not declare`;
    }
  }
  if (Array.isArray(value) && value.length > 0 && isRecord(schema.items)) {
    const problem = exampleMismatch(value[0], schema.items);
    if (problem !== undefined) return `has a first item that ${problem}`;
  }
  return undefined;
}

/** `value` coerced across an obvious slip to fit `schema`, or undefined when it cannot fit. */
function fitExample(value: unknown, schema: JsonSchema): { value: unknown } | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return undefined;
  if (exampleMismatch(value, schema) === undefined) return { value };
  const type = declaredType(schema);
  let coerced: unknown = undefined;
  if (type === "string" && (typeof value === "number" || typeof value === "boolean")) coerced = String(value);
  else if (type === "integer" && typeof value === "string" && /^[+-]?\d+$/.test(value.trim())) {
    coerced = Number(value.trim());
  } else if (type === "number" && typeof value === "string" && value.trim() !== "") coerced = Number(value);
  if (coerced === undefined || (typeof coerced === "number" && !Number.isFinite(coerced))) return undefined;
  return exampleMismatch(coerced, schema) === undefined ? { value: coerced } : undefined;
}

/** Whether `value` passes the schema the tool advertises for `schema` (formats included). */
function fitsStrictly(value: unknown, schema: JsonSchema): boolean {
  return schemaProblem(cleanSchema(schema), value) === undefined;
}

/**
 * The spec's own example for `schema` (example, default, first of examples), if one fits, keeps its
 * bounds and passes the advertised schema (a malformed uuid, `null` for a string, `4.5` for an
 * integer do not).
 */
function ownExample(schema: JsonSchema): { value: unknown } | undefined {
  const candidates: unknown[] = [schema.example, schema.default];
  if (Array.isArray(schema.examples)) candidates.push(schema.examples[0]);
  for (const candidate of candidates) {
    if (candidate === undefined || candidate === null) continue;
    const fitted = fitExample(candidate, schema);
    if (fitted !== undefined && withinBounds(fitted.value, schema) && fitsStrictly(fitted.value, schema)) {
      return fitted;
    }
  }
  return undefined;
}

/**
 * `text` fitted to the schema's string bounds: a string the `pattern` matches when `text` does not
 * (see `pattern_example.ts`), else `text` padded with `x` to `minLength` and cut to `maxLength`. What
 * still does not fit is returned as it is (the generated tests then leave that tool out).
 */
function fitString(text: string, schema: JsonSchema): string {
  const pattern = typeof schema.pattern === "string" ? schema.pattern : undefined;
  let out = text;
  if (pattern !== undefined && !withinBounds(out, { pattern })) out = patternExample(pattern) ?? out;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  if (pattern === undefined && out.length < min) out = out.padEnd(min, "x");
  if (pattern === undefined && out.length > max) out = out.slice(0, Math.max(max, 0));
  return out;
}

/** `items` repeated up to the schema's `minItems` (not when items must be unique). */
function fitItems(items: unknown[], schema: JsonSchema): unknown[] {
  const min = typeof schema.minItems === "number" ? Math.min(schema.minItems, MAX_EXAMPLE_ITEMS) : 0;
  if (items.length === 0 || items.length >= min || schema.uniqueItems === true) return items;
  return Array.from({ length: min }, () => items[0]);
}

function lowerBound(schema: JsonSchema, integer: boolean): number {
  const min = schema.minimum;
  const exclusive = schema.exclusiveMinimum;
  if (typeof min === "number" && Number.isFinite(min)) {
    const bound = integer ? Math.ceil(min) : min;
    return exclusive === true && bound === min ? bound + 1 : bound;
  }
  if (typeof exclusive === "number" && Number.isFinite(exclusive)) {
    return integer ? Math.floor(exclusive) + 1 : exclusive + 1;
  }
  return 1;
}

function synthesise(schema: JsonSchema, name: string, depth: number): unknown {
  const members = schema.enum;
  if (Array.isArray(members) && members.length > 0) return members[0];
  if (isRecord(schema.properties) && depth < MAX_EXAMPLE_DEPTH) {
    const alternatives = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(alternatives) && isRecord(alternatives[0])) {
      return firstAlternative(schema, alternatives[0], depth);
    }
  }
  for (const combinator of ["oneOf", "anyOf", "allOf"]) {
    const options = schema[combinator];
    if (Array.isArray(options) && isRecord(options[0])) return exampleAt(options[0], name, depth + 1);
  }
  const type = declaredType(schema);
  if (type === "integer") return lowerBound(schema, true);
  if (type === "number") return lowerBound(schema, false);
  if (type === "boolean") return true;
  if (type === "array") {
    return isRecord(schema.items) && depth < MAX_EXAMPLE_DEPTH
      ? fitItems([exampleAt(schema.items, name, depth + 1)], schema)
      : [];
  }
  if (type === "object" || schema.properties !== undefined) {
    const props = schema.properties;
    if (!isRecord(props) || depth >= MAX_EXAMPLE_DEPTH) return {};
    return Object.fromEntries(
      Object.entries(props).filter(([, sub]) => isRecord(sub)).map((
        [key, sub],
      ) => [key, exampleAt(sub as JsonSchema, key, depth + 1)]),
    );
  }
  return fitString(namedString(schema, name), schema);
}

/**
 * An object for a schema whose properties are shared and whose `oneOf`/`anyOf` members pick among
 * them ("`id`, or `owner` + `repo` + `number`"): its own required properties and the first member's,
 * and nothing else, so exactly that member matches.
 */
function firstAlternative(schema: JsonSchema, member: JsonSchema, depth: number): Record<string, unknown> {
  const props: Record<string, unknown> = { ...schema.properties as Record<string, unknown> };
  if (isRecord(member.properties)) Object.assign(props, member.properties);
  const names = [schema.required, member.required].flatMap((list) => Array.isArray(list) ? list : [])
    .filter((key): key is string => typeof key === "string");
  const out: Record<string, unknown> = {};
  for (const key of new Set(names)) {
    const sub = props[key];
    out[key] = isRecord(sub) ? exampleAt(sub, key, depth + 1) : "string";
  }
  return out;
}

/** A string for `schema` from its format or the parameter's name. */
function namedString(schema: JsonSchema, name: string): string {
  const format = typeof schema.format === "string" ? FORMAT_EXAMPLES[schema.format] : undefined;
  if (format !== undefined) return format;
  const lowered = name.toLowerCase();
  if (lowered.endsWith("id")) return "123";
  if (lowered.includes("email")) return "ada@example.com";
  if (lowered.includes("name")) return "example";
  return "string";
}

function exampleAt(schema: JsonSchema, name: string, depth: number): unknown {
  return ownExample(schema)?.value ?? synthesise(schema, name, depth);
}

/**
 * A plausible example value for `schema`, for a parameter or property called `name`.
 *
 * @example
 * ```ts
 * import { exampleValue } from "./examples.ts";
 * exampleValue({ type: "string", example: 2019 }, "year"); // "2019"
 * exampleValue({ type: "string" }, "petId"); // "123"
 * exampleValue({ type: "integer", minimum: 5 }, "limit"); // 5
 * ```
 */
export function exampleValue(schema: JsonSchema, name = "value"): unknown {
  return exampleAt(schema, name, 0);
}

/**
 * A tool's example: a value for every required visible parameter; when none is required, for the
 * `prefer`red names (a multi-route tool passes its first route's required parameters). Null when
 * there is nothing to show, or when the example would not pass the tool's advertised input schema
 * (see {@linkcode toolExampleProblem}): an example the server would refuse is worse than none.
 */
export function makeExample(
  params: Readonly<Record<string, ParamPlan>>,
  prefer: readonly string[] = [],
): Record<string, unknown> | null {
  let names = Object.keys(params).filter((name) => params[name].required && !params[name].hidden);
  if (names.length === 0) {
    names = prefer.filter((name) => Object.hasOwn(params, name) && !params[name].hidden);
  }
  if (names.length === 0) return null;
  const example = Object.fromEntries(
    names.map((name) => [name, jsonNative(exampleValue(params[name].json_schema, name))]),
  );
  return toolExampleProblem(example, params) === undefined ? example : null;
}
