/**
 * How a plan tool is registered: its input schema (the visible parameters, cleaned and capped), the
 * description the agent reads, its MCP annotations from its risk, and whether it is gated.
 *
 * Size caps: 4,000 characters per parameter schema and 24,000 per tool. Over a cap a schema is trimmed
 * step by step: nested descriptions, examples and titles go; then everything but its own keywords
 * (type, enum, scalar keywords, shallow union members); then the enum; then all but `type`.
 *
 * @module
 */

import type { JsonSchemaObject, ToolOptions } from "../../mcp/mod.ts";
import type { ParamPlan, ToolPlan } from "../plan/mod.ts";
import type { JsonSchema } from "../types.ts";
import { routeAlternatives } from "./route_select.ts";
import { cleanSchema } from "./schema_clean.ts";

/** Largest advertised schema of one parameter, in characters of JSON. */
export const PARAM_SCHEMA_MAX: number = 4_000;
/** Largest advertised input schema of one tool, in characters of JSON. */
export const TOOL_SCHEMA_MAX: number = 24_000;
/** Longest tool prose kept in the description. */
const PROSE_MAX = 3_000;
/** Longest tail line (alternatives, fixed values, example). */
const TAIL_MAX = 1_500;
/** Longest parameter description kept. */
const PARAM_DESCRIPTION_MAX = 1_000;

const LIST_KEYS = new Set(["anyOf", "oneOf", "allOf"]);
const NESTED_TEXT = new Set(["description", "examples", "title"]);

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function size(value: unknown): number {
  return JSON.stringify(value).length;
}

function isScalarish(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

function stripNested(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return value.map((item) => stripNested(item, depth));
  if (typeof value !== "object" || value === null) return value;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(value)) {
    if (depth > 0 && NESTED_TEXT.has(key)) continue;
    const next = key === "enum" || key === "default" || key === "const" || key === "examples"
      ? item
      : stripNested(item, depth + 1);
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function ownKeywords(schema: JsonSchema, keepEnum: boolean): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "enum") {
      if (keepEnum) out.enum = value;
    } else if (key === "type" || (isScalarish(value) && key !== "description")) {
      out[key] = value;
    } else if (LIST_KEYS.has(key) && Array.isArray(value)) {
      out[key] = value.map((member) => ownKeywords(member as JsonSchema, false));
    }
  }
  return out;
}

/** The trimming steps of one cleaned schema, smallest last. */
function trimSteps(schema: JsonSchema): JsonSchema[] {
  return [
    stripNested(schema, 0) as JsonSchema,
    ownKeywords(schema, true),
    ownKeywords(schema, false),
    schema.type === undefined ? {} : { type: schema.type },
  ];
}

function withParamText(schema: JsonSchema, param: ParamPlan): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (param.description.trim() !== "") {
    out.description = clip(param.description.trim(), PARAM_DESCRIPTION_MAX);
  }
  if (param.default !== undefined) out.default = param.default;
  return out;
}

/** The visible parameters of `tool`, in plan order. */
export function visibleParams(tool: ToolPlan): Array<[string, ParamPlan]> {
  return Object.entries(tool.params).filter(([, param]) => !param.hidden);
}

/**
 * The input schema `tool` advertises: an object of its visible parameters (cleaned, then trimmed to
 * the size caps) with the tool-level required ones listed.
 */
export function planToolInput(tool: ToolPlan): JsonSchemaObject {
  const entries = visibleParams(tool).map(([name, param]) => {
    const cleaned = cleanSchema(param.json_schema);
    const steps = trimSteps(cleaned);
    let level = -1;
    let schema = withParamText(cleaned, param);
    while (size(schema) > PARAM_SCHEMA_MAX && level < steps.length - 1) {
      schema = withParamText(steps[++level], param);
    }
    return { name, param, steps, level, schema };
  });
  const total = () => entries.reduce((sum, entry) => sum + size(entry.schema), 0);
  while (total() > TOOL_SCHEMA_MAX) {
    const largest = entries.filter((entry) => entry.level < entry.steps.length - 1)
      .sort((a, b) => size(b.schema) - size(a.schema))[0];
    if (largest === undefined) break;
    largest.schema = withParamText(largest.steps[++largest.level], largest.param);
  }
  const properties: Record<string, JsonSchema> = {};
  for (const { name, schema } of entries) {
    Object.defineProperty(properties, name, {
      value: schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const required = entries.filter((entry) => entry.param.required).map((entry) => entry.name);
  return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
}

/**
 * What the agent reads: the tool's prose, then, when they apply, the route alternatives
 * ("Provide one of: a + b | c"), the fixed values hidden parameters always send, and the example.
 */
export function planToolDescription(tool: ToolPlan): string {
  const lines = [clip(tool.description.trim(), PROSE_MAX)];
  const tail: string[] = [];
  if (tool.routes.length > 1) {
    const alternatives = routeAlternatives(tool);
    if (alternatives.includes(" | ")) tail.push(`Provide one of: ${alternatives}`);
  }
  const fixed = Object.entries(tool.params).filter(([, param]) => param.hidden && param.default !== undefined)
    .map(([name, param]) => `${name}=${JSON.stringify(param.default)}`);
  if (fixed.length > 0) tail.push(`Always sends: ${fixed.join(", ")}`);
  if (tool.example !== null && Object.keys(tool.example).length > 0) {
    tail.push(`Example: ${JSON.stringify(tool.example)}`);
  }
  if (tail.length > 0) lines.push("", ...tail.map((line) => clip(line, TAIL_MAX)));
  return lines.join("\n");
}

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/**
 * The registration options of `tool`: description, input schema, sorted tags, annotations from its
 * risk (`readOnlyHint` for read, `destructiveHint` for destructive; `idempotentHint` when every route
 * uses GET, HEAD, PUT, DELETE or OPTIONS; `openWorldHint` always) and `requiresApproval` from the plan.
 *
 * @example
 * ```ts ignore
 * server.tool(tool.name, planToolOptions(tool), (args, ctx) => upstream.call(tool, args, ctx));
 * ```
 */
export function planToolOptions(tool: ToolPlan): ToolOptions<JsonSchemaObject> {
  const options: ToolOptions<JsonSchemaObject> = {
    description: planToolDescription(tool),
    input: planToolInput(tool),
    tags: [...new Set(tool.tags)].sort(),
    openWorldHint: true,
    idempotentHint: tool.routes.every((route) => IDEMPOTENT_METHODS.has(route.method)),
    requiresApproval: tool.requires_approval,
  };
  if (tool.risk === "read") options.readOnlyHint = true;
  if (tool.risk === "destructive") options.destructiveHint = true;
  return options;
}
