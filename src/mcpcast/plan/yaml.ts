/**
 * The plan file's text form. {@linkcode loadPlan} reads `mcpcast.plan.yaml` (YAML 1.2 core schema,
 * alias expansion capped) and validates it; {@linkcode savePlan} writes the compact form: defaults
 * and nulls omitted, except the keys a reviewer must always see (`version`, `api.name`,
 * `api.base_url`, `api.auth`, `profile`, `tools`, `dropped`), keys in declared order, under a
 * three-line header. `loadPlan(savePlan(plan))` deep-equals `plan` for any validated plan.
 *
 * @module
 */

import { parseDocument } from "yaml";
import { McpcastError } from "../errors.ts";
import { parsePlan } from "./schema.ts";
import { streamYaml } from "./yaml_writer.ts";
import type { ApiPlan, McpcastPlan, ParamPlan, RouteParam, RoutePlan, ToolPlan } from "./types.ts";

/** The comment heading every saved plan (three lines, each at most 100 characters). */
export const PLAN_HEADER: string =
  "# mcpcast.plan.yaml: the editable source of truth for this MCP server (tools, risk, approval).\n" +
  "# Edit tool names, descriptions, params, examples or the dropped list; generated code follows it.\n" +
  "# Regenerate the project after editing: agentry mcpcast --plan mcpcast.plan.yaml\n";

/** Line width of a saved plan. */
const LINE_WIDTH = 100;

/** Keys whose presence marks a document as an OpenAPI/Swagger spec. */
const SPEC_KEYS = ["paths", "openapi", "swagger"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when `data` is shaped like a plan (`api` and `tools`) and not like a spec. */
export function isPlanDocument(data: unknown): boolean {
  return isRecord(data) && "api" in data && "tools" in data && SPEC_KEYS.every((key) => !(key in data));
}

/** The parsed YAML document in `text`, refusing syntax errors with their place only. */
function parseYaml(text: string): unknown {
  const doc = parseDocument(text, { schema: "core", resolveKnownTags: false });
  const error = doc.errors[0];
  if (error !== undefined) {
    const where = error.linePos === undefined
      ? ""
      : ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}`;
    const what = error.code.toLowerCase().replaceAll("_", " ");
    throw new McpcastError(`plan is not valid YAML: ${what}${where}`);
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw new McpcastError("plan YAML expands too many aliases", { cause });
  }
}

/**
 * Reads and validates a plan. Text fields are scrubbed of terminal controls; YAML dates and
 * non-finite numbers in schemas, defaults and examples become strings.
 *
 * @throws {McpcastError} for invalid YAML, a document that is not a mapping or looks like a spec,
 * or an invalid plan ("invalid plan:" then `- loc: message` lines, never values).
 *
 * @example
 * ```ts
 * import { loadPlan } from "./yaml.ts";
 * const plan = loadPlan("api: {name: pets, base_url: https://api.example.com}\ntools: []\n");
 * // plan.profile === "read-only", plan.api.auth === "passthrough"
 * ```
 */
export function loadPlan(text: string): McpcastPlan {
  const data = parseYaml(text);
  if (data === null || data === undefined) throw new McpcastError("plan is empty");
  if (!isRecord(data)) throw new McpcastError("plan must be a YAML mapping");
  const specKeys = SPEC_KEYS.filter((key) => key in data);
  if (specKeys.length > 0) {
    throw new McpcastError(
      `this document looks like an OpenAPI/Swagger spec, not an mcpcast plan (it has ` +
        `${specKeys.map((key) => `'${key}'`).join(", ")}); convert it with: agentry mcpcast <spec>`,
    );
  }
  return parsePlan(data);
}

// The compact form leaves out every field whose value is its default (or unset). Written field by
// field: a plan of a large API has tens of thousands of them, so no tuples or deep comparisons.

/** A map without a prototype, so that a parameter named `__proto__` is set as a key like any other. */
function ownKeysMap(): Record<string, unknown> {
  return Object.create(null);
}

function isUnset(value: unknown): boolean {
  return value === undefined || value === null;
}

function isEmptyObject(value: object): boolean {
  for (const _key in value) return false;
  return true;
}

/** Whether `schema` is `{ type: "string" }`, the default parameter schema. */
function isDefaultSchema(schema: Record<string, unknown>): boolean {
  let keys = 0;
  for (const _key in schema) keys += 1;
  return keys === 1 && schema.type === "string";
}

function compactApi(api: ApiPlan): Record<string, unknown> {
  const out: Record<string, unknown> = { name: api.name, base_url: api.base_url, auth: api.auth };
  if (!isUnset(api.approval)) out.approval = api.approval;
  if (api.description !== "") out.description = api.description;
  if (!isUnset(api.spec_source)) out.spec_source = api.spec_source;
  if (api.credential_location !== "header") out.credential_location = api.credential_location;
  if (api.credential_name !== "Authorization") out.credential_name = api.credential_name;
  if (api.security_schemes !== undefined && !isEmptyObject(api.security_schemes)) {
    out.security_schemes = api.security_schemes;
  }
  if (api.tool_mode !== undefined && api.tool_mode !== "direct") out.tool_mode = api.tool_mode;
  return out;
}

function compactRouteParam(param: RouteParam): Record<string, unknown> {
  const out: Record<string, unknown> = { location: param.location };
  if (param.required) out.required = true;
  if (!isUnset(param.wire_name)) out.wire_name = param.wire_name;
  // slice C: serialization
  if (!isUnset(param.style)) out.style = param.style;
  if (!isUnset(param.explode)) out.explode = param.explode;
  if (param.allow_reserved === true) out.allow_reserved = true;
  if (!isUnset(param.content_type)) out.content_type = param.content_type;
  return out;
}

function compactRoute(route: RoutePlan): Record<string, unknown> {
  const out: Record<string, unknown> = {
    operation_id: route.operation_id,
    method: route.method,
    path: route.path,
  };
  if (!isEmptyObject(route.params)) {
    const params = ownKeysMap();
    for (const name in route.params) params[name] = compactRouteParam(route.params[name]);
    out.params = params;
  }
  if (route.body_encoding !== "json") out.body_encoding = route.body_encoding;
  if (!isUnset(route.base_url)) out.base_url = route.base_url;
  if (route.security !== undefined) out.security = route.security;
  return out;
}

function compactParam(param: ParamPlan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (param.description !== "") out.description = param.description;
  if (!isDefaultSchema(param.json_schema)) out.json_schema = param.json_schema;
  if (param.required) out.required = true;
  if (!isUnset(param.default)) out.default = param.default;
  if (param.hidden) out.hidden = true;
  return out;
}

function compactTool(tool: ToolPlan): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: tool.name,
    description: tool.description,
    risk: tool.risk,
    routes: tool.routes.map(compactRoute),
  };
  if (!isEmptyObject(tool.params)) {
    const params = ownKeysMap();
    for (const name in tool.params) params[name] = compactParam(tool.params[name]);
    out.params = params;
  }
  if (!isUnset(tool.example)) out.example = tool.example;
  if (tool.requires_approval) out.requires_approval = true;
  if (tool.tags.length > 0) out.tags = tool.tags;
  return out;
}

/**
 * The compact YAML text of a validated plan, headed by {@linkcode PLAN_HEADER}. Strings holding
 * U+0085, U+2028 or U+2029 are double-quoted with those characters escaped, so YAML 1.1 readers do
 * not take them as line breaks.
 *
 * @example
 * ```ts
 * import { loadPlan, savePlan } from "./yaml.ts";
 * const text = savePlan(loadPlan("api: {name: pets, base_url: https://api.example.com}\ntools: []\n"));
 * // text ends with "version: 1\napi:\n  name: pets\n  base_url: https://api.example.com\n  auth: passthrough\n
 * // profile: read-only\ntools: []\ndropped: []\n"
 * ```
 */
export function savePlan(plan: McpcastPlan): string {
  const chunks: string[] = [];
  streamPlan(plan, (chunk) => chunks.push(chunk));
  return chunks.join("");
}

/**
 * The text of {@linkcode savePlan}, handed to `emit` in chunks (of about 64 KiB) rather than built as
 * one string: for writing a large plan to a file.
 */
export function streamPlan(plan: McpcastPlan, emit: (chunk: string) => void): void {
  const data = {
    version: plan.version,
    api: compactApi(plan.api),
    profile: plan.profile,
    tools: plan.tools.map(compactTool),
    dropped: plan.dropped.map((op) => ({ operation_id: op.operation_id, reason: op.reason })),
  };
  streamYaml(data, emit, { width: LINE_WIDTH, head: PLAN_HEADER });
}
