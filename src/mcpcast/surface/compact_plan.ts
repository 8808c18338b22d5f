/**
 * Compact description mode: a plan whose tool list keeps what a model needs to choose and call a
 * tool, and little else. The result is an ordinary plan (saved, reviewed and served like any other),
 * so what users read in the plan file is exactly what the server lists.
 *
 * | Part | Kept | Removed or shortened |
 * |---|---|---|
 * | tool description | the first sentences of its first paragraph within 200 characters | the rest, Markdown |
 * | parameter description | its first sentence, within 120 characters | a description that only restates the name |
 * | parameter schema | types, enums, required, formats, bounds, defaults, properties' own descriptions (shortened) | `title`, `example(s)`, `x-*`, `$comment`, `externalDocs`, `xml`, descriptions below the first level |
 *
 * Names, routes, risk, approval, hidden parameters, defaults and examples are untouched.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import { type McpcastPlan, type ParamPlan, type ToolPlan, validatePlan } from "../plan/mod.ts";
import type { JsonSchema } from "../types.ts";
import { leadSentences, PARAM_DESCRIPTION_MAX, restatesName, TOOL_DESCRIPTION_MAX } from "./compact_text.ts";

/** Keywords removed at every depth of a parameter schema. */
const NOISE = new Set(["title", "example", "examples", "$comment", "externalDocs", "xml"]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is one schema. */
const SCHEMA_ONE = new Set([
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
  "additionalItems",
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * `schema` without noise; `depth` counts the object levels below the parameter (its own level is 0,
 * its properties' level 1). Descriptions are kept, shortened, at level 1 only (the parameter's own
 * travels in its plan description).
 */
function compactSchema(schema: unknown, depth: number, name: string): unknown {
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (NOISE.has(key) || key.startsWith("x-")) continue;
    if (key === "description") {
      const text = depth === 1 && typeof value === "string" ? shortDescription(value, name) : "";
      if (text !== "") out.description = text;
    } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      const map: Record<string, unknown> = {};
      const level = key === "properties" || key === "patternProperties" ? depth + 1 : depth;
      for (const [entry, member] of Object.entries(value)) {
        setKey(map, entry, compactSchema(member, level, entry));
      }
      setKey(out, key, map);
    } else if (SCHEMA_ONE.has(key)) {
      setKey(out, key, compactSchema(value, key === "items" ? depth : depth + 1, name));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      setKey(out, key, value.map((member) => compactSchema(member, depth, name)));
    } else setKey(out, key, value);
  }
  return out;
}

/** A description shortened to its first sentence, or "" when it only restates `name`. */
function shortDescription(text: string, name: string): string {
  const short = leadSentences(text, PARAM_DESCRIPTION_MAX, 1);
  return restatesName(short, name) ? "" : short;
}

function compactParam(name: string, param: ParamPlan): ParamPlan {
  const schema = isObject(param.json_schema) ? param.json_schema : {};
  const own = typeof schema.description === "string" ? schema.description : "";
  const out: ParamPlan = {
    ...param,
    description: shortDescription(param.description.trim() !== "" ? param.description : own, name),
    json_schema: compactSchema(schema, 0, name) as JsonSchema,
  };
  return out;
}

function compactTool(tool: ToolPlan): ToolPlan {
  const params: Record<string, ParamPlan> = {};
  for (const [name, param] of Object.entries(tool.params)) setKey(params, name, compactParam(name, param));
  const description = leadSentences(tool.description, TOOL_DESCRIPTION_MAX);
  return { ...tool, description: description !== "" ? description : tool.description, params };
}

/**
 * `plan` in compact description mode (see the module doc): shorter tool and parameter descriptions,
 * parameter schemas without titles, examples, vendor keys and deep descriptions; everything a call
 * needs (names, types, enums, required, routes, risk, approval) unchanged.
 *
 * @throws {McpcastError} when the compacted plan does not validate (a bug: it names the problems).
 *
 * @example
 * ```ts ignore
 * import { compactPlan, surfaceReport } from "@agentry/agentry/mcpcast";
 * const compact = compactPlan(plan);
 * console.log((await surfaceReport(plan)).tokens, (await surfaceReport(compact)).tokens);
 * ```
 */
export function compactPlan(plan: McpcastPlan): McpcastPlan {
  const result = validatePlan({ ...plan, tools: plan.tools.map(compactTool) });
  if (!result.ok) {
    throw new McpcastError(
      `the compacted plan is invalid:\n${result.issues.map((line) => `- ${line}`).join("\n")}`,
    );
  }
  return result.plan;
}
