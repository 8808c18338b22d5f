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
import type { JsonSchema } from "../types.ts";
import { type ParamPlan, riskFloor, type ToolPlan } from "../plan/mod.ts";
import { APPROVAL_CODE_ARG } from "./operator_approval.ts";
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

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);
const IDEMPOTENT_METHODS = new Set([...SAFE_METHODS, "PUT", "DELETE"]);

/** Settings for {@linkcode planToolOptions}. */
export interface PlanToolSettings {
  /**
   * Advertise the optional `approval_code` argument on a gated tool: the server issues one-time
   * codes (elicitation mode). @default true
   */
  approvalCode?: boolean;
}

/** Title prefix and description lead of a gated tool, for clients to show. */
export const APPROVAL_MARKER = "[requires approval]";

/**
 * The MCP annotations of `tool`, set on every tool. `readOnlyHint`: classified read, or every route
 * a safe method (GET, HEAD, OPTIONS, TRACE) whose id and path name nothing destructive.
 * `destructiveHint`: classified destructive, or any DELETE route (a write or financial POST, PUT or
 * PATCH is not: it adds or replaces). `idempotentHint`: every route GET, HEAD, OPTIONS, TRACE, PUT or
 * DELETE. `openWorldHint`: always (every tool calls a remote API).
 */
export function planToolAnnotations(
  tool: ToolPlan,
): Required<Pick<ToolOptions, "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint">> {
  const readOnly = tool.risk === "read" ||
    (tool.risk !== "destructive" &&
      tool.routes.every((route) =>
        SAFE_METHODS.has(route.method) && riskFloor(route.operation_id, route.method, route.path) === "read"
      ));
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly &&
      (tool.risk === "destructive" || tool.routes.some((route) => route.method === "DELETE")),
    idempotentHint: tool.routes.every((route) => IDEMPOTENT_METHODS.has(route.method)),
    openWorldHint: true,
  };
}

function withApprovalCode(input: JsonSchemaObject): JsonSchemaObject {
  const properties: Record<string, unknown> = { ...input.properties };
  Object.defineProperty(properties, APPROVAL_CODE_ARG, {
    value: {
      type: "string",
      description:
        "Only after this tool failed with APPROVAL_REQUIRED: the one-time code a human read in the " +
        "server's log and gave you for this exact call. Never guess one.",
    },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return { ...input, properties };
}

/**
 * The registration options of `tool`: description, input schema, sorted tags, annotations
 * ({@linkcode planToolAnnotations}) and `requiresApproval` from the plan. A gated tool is listed
 * like any other, marked for clients: its title is "[requires approval] <name>", its description
 * starts with the marker, and (unless `settings.approvalCode` is false) it takes an optional
 * `approval_code`.
 *
 * @example
 * ```ts ignore
 * server.tool(tool.name, planToolOptions(tool), (args, ctx) => upstream.call(tool, args, ctx));
 * ```
 */
export function planToolOptions(
  tool: ToolPlan,
  settings: PlanToolSettings = {},
): ToolOptions<JsonSchemaObject> {
  const gated = tool.requires_approval;
  const description = planToolDescription(tool);
  const input = planToolInput(tool);
  const options: ToolOptions<JsonSchemaObject> = {
    description: gated
      ? `${APPROVAL_MARKER} A human must approve every call.\n\n${description}`
      : description,
    input:
      gated && (settings.approvalCode ?? true) && !Object.hasOwn(input.properties ?? {}, APPROVAL_CODE_ARG)
        ? withApprovalCode(input)
        : input,
    tags: [...new Set(tool.tags)].sort(),
    ...planToolAnnotations(tool),
    requiresApproval: gated,
  };
  if (gated) options.title = `${APPROVAL_MARKER} ${tool.name}`;
  return options;
}
