/**
 * A plan parameter's JSON Schema as a tool advertises it: plain JSON Schema 2020-12 that any client
 * reads and the framework's validator (Ajv, draft 2020-12) compiles.
 *
 * - OpenAPI 3.0 `nullable` / Swagger `x-nullable` become JSON Schema null: the type gains `"null"`, an
 *   enum gains `null`, a union gains a `{type: "null"}` member, `allOf` becomes `anyOf: [{allOf}, null]`.
 * - Boolean `exclusiveMinimum`/`exclusiveMaximum` (draft 4) take the numeric form.
 * - `example` becomes `examples: [..]`; an example that does not fit the (cleaned) schema it sits in,
 *   formats included (see `json_check.ts`), is dropped, so every advertised example is one the tool
 *   accepts.
 * - Dropped: vendor `x-` keys, `$ref`, `$defs`, `definitions`, `$schema`, `$id`, `discriminator`, `xml`,
 *   `externalDocs`; data values (`default`, `const`, `enum` members, `examples`) holding a `$ref` key;
 *   properties marked `readOnly` (and their `required` entries).
 * - Nested descriptions are cut to 600 characters.
 * - Keywords the validator would refuse are dropped: unknown type names (Swagger's `file`), a
 *   `required` that is not a list, empty unions or enums, bounds that are not numbers, patterns that
 *   are not valid regular expressions, a tuple `items` list (becomes `prefixItems`).
 *
 * @module
 */

import type { JsonSchema } from "../types.ts";
import { schemaProblem } from "./json_check.ts";
import { SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS, SCHEMA_ONE_KEYWORDS } from "../_schema_keywords.ts";

/** Longest nested description kept. */
export const NESTED_DESCRIPTION_MAX: number = 600;

const DROPPED = new Set([
  "$ref",
  "$defs",
  "definitions",
  "$schema",
  "$id",
  "discriminator",
  "xml",
  "externalDocs",
  "nullable",
  "example",
]);
const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);
const NUMBERS = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]);
const COUNTS = new Set([
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a data value carries a `$ref` key anywhere (such values are dropped, not followed). */
function holdsRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRef);
  if (!isRecord(value)) return false;
  return Object.hasOwn(value, "$ref") || Object.values(value).some(holdsRef);
}

function validPattern(pattern: unknown): pattern is string {
  if (typeof pattern !== "string") return false;
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

function set(out: JsonSchema, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

function cleanType(type: unknown): unknown {
  if (typeof type === "string") return JSON_TYPES.has(type) ? type : undefined;
  if (!Array.isArray(type)) return undefined;
  const names = [...new Set(type.filter((name) => typeof name === "string" && JSON_TYPES.has(name)))];
  return names.length === 0 ? undefined : names;
}

function cleanMap(value: unknown, depth: number): Record<string, JsonSchema> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, JsonSchema> = {};
  for (const [name, member] of Object.entries(value)) {
    if (!isRecord(member) || member.readOnly === true) continue;
    set(out, name, cleanAt(member, depth + 1));
  }
  return out;
}

function cleanKey(key: string, value: unknown, depth: number): unknown {
  if (key === "type") return cleanType(value);
  if (key === "description") {
    if (typeof value !== "string") return undefined;
    return depth > 0 && value.length > NESTED_DESCRIPTION_MAX
      ? `${value.slice(0, NESTED_DESCRIPTION_MAX)}…`
      : value;
  }
  if (SCHEMA_MAP_KEYWORDS.has(key)) return cleanMap(value, depth);
  if (SCHEMA_LIST_KEYWORDS.has(key)) {
    if (!Array.isArray(value)) return undefined;
    const members = value.filter(isRecord).map((member) => cleanAt(member, depth + 1));
    return members.length === 0 ? undefined : members;
  }
  if (key === "items" && Array.isArray(value)) return undefined; // handled as prefixItems
  if (SCHEMA_ONE_KEYWORDS.has(key)) {
    return isRecord(value) ? cleanAt(value, depth + 1) : typeof value === "boolean" ? value : undefined;
  }
  if (key === "enum") {
    if (!Array.isArray(value)) return undefined;
    const members = value.filter((member) => !holdsRef(member));
    return members.length === 0 ? undefined : members;
  }
  if (key === "required") {
    if (!Array.isArray(value)) return undefined;
    const names = [...new Set(value.filter((name) => typeof name === "string"))];
    return names.length === 0 ? undefined : names;
  }
  if (key === "examples") return Array.isArray(value) ? value.filter((item) => !holdsRef(item)) : undefined;
  if (key === "default" || key === "const") return holdsRef(value) ? undefined : value;
  if (NUMBERS.has(key)) return typeof value === "number" && Number.isFinite(value) ? value : undefined;
  if (COUNTS.has(key)) return Number.isSafeInteger(value) && (value as number) >= 0 ? value : undefined;
  if (key === "multipleOf") return typeof value === "number" && value > 0 ? value : undefined;
  if (key === "pattern") return validPattern(value) ? value : undefined;
  if (key === "format" || key === "title") return typeof value === "string" ? value : undefined;
  if (key === "uniqueItems") return typeof value === "boolean" ? value : undefined;
  return value;
}

function withNull(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === "string") set(schema, "type", type === "null" ? type : [type, "null"]);
  else if (Array.isArray(type) && !type.includes("null")) set(schema, "type", [...type, "null"]);
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) set(schema, "enum", [...schema.enum, null]);
  for (const key of ["anyOf", "oneOf"]) {
    const members = schema[key];
    if (Array.isArray(members)) set(schema, key, [...members, { type: "null" }]);
  }
  if (Array.isArray(schema.allOf) && schema.anyOf === undefined && schema.oneOf === undefined) {
    const { allOf, ...rest } = schema;
    return { ...rest, anyOf: [{ allOf }, { type: "null" }] };
  }
  return schema;
}

function fixExclusive(source: JsonSchema, out: JsonSchema): void {
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]]) {
    const value = source[flag];
    if (typeof value !== "boolean") continue;
    const limit = source[bound];
    delete out[flag];
    if (value && typeof limit === "number" && Number.isFinite(limit)) {
      set(out, flag, limit);
      delete out[bound];
    }
  }
}

function cleanAt(schema: JsonSchema, depth: number): JsonSchema {
  let out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith("x-")) continue;
    const cleaned = cleanKey(key, value, depth);
    if (cleaned !== undefined) set(out, key, cleaned);
  }
  if (Array.isArray(schema.items)) {
    const members = schema.items.filter(isRecord).map((member) => cleanAt(member, depth + 1));
    if (members.length > 0 && out.prefixItems === undefined) set(out, "prefixItems", members);
  }
  fixExclusive(schema, out);
  if (schema.example !== undefined && out.examples === undefined && !holdsRef(schema.example)) {
    set(out, "examples", [schema.example]);
  }
  const readOnly = isRecord(schema.properties)
    ? Object.entries(schema.properties).filter(([, member]) => isRecord(member) && member.readOnly === true)
      .map(([name]) => name)
    : [];
  if (readOnly.length > 0 && Array.isArray(out.required)) {
    const required = (out.required as string[]).filter((name) => !readOnly.includes(name));
    if (required.length > 0) set(out, "required", required);
    else delete out.required;
  }
  if (schema.nullable === true || schema["x-nullable"] === true) out = withNull(out);
  return withFittingExamples(out);
}

/** `schema` with only the `examples` that fit it (the key removed when none does). */
function withFittingExamples(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.examples)) return schema;
  const { examples, ...rules } = schema;
  const kept = (examples as unknown[]).filter((example) => schemaProblem(rules, example) === undefined);
  if (kept.length === examples.length) return schema;
  if (kept.length === 0) delete schema.examples;
  else set(schema, "examples", kept);
  return schema;
}

/**
 * `schema` cleaned for advertising and validation (see the module documentation). Returns a new
 * object; `schema` is not changed.
 *
 * @example
 * ```ts
 * import { cleanSchema } from "./schema_clean.ts";
 * cleanSchema({ type: "string", nullable: true, example: "x", "x-go-type": "string" });
 * // { type: ["string", "null"], examples: ["x"] }
 * ```
 */
export function cleanSchema(schema: JsonSchema): JsonSchema {
  return cleanAt(schema, 0);
}
