/**
 * The JSON Schema keywords whose values are schemas, for the stages that walk parameter schemas (the
 * runtime's cleaning, the compact description mode).
 *
 * @module
 */

/** Keywords whose value maps names to schemas. */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
]);

/** Keywords whose value is a list of schemas. */
export const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

/** Keywords whose value is one schema. */
export const SCHEMA_ONE_KEYWORDS: ReadonlySet<string> = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
]);
