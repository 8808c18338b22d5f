/**
 * The plan file's text form. {@linkcode loadPlan} reads `mcpcast.plan.yaml` (YAML 1.2 core schema,
 * alias expansion capped) and validates it; {@linkcode savePlan} writes the compact form: defaults
 * and nulls omitted, except the keys a reviewer must always see (`version`, `api.name`,
 * `api.base_url`, `api.auth`, `profile`, `tools`, `dropped`), keys in declared order, under a
 * three-line header. `loadPlan(savePlan(plan))` deep-equals `plan` for any validated plan.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { parseDocument } from "yaml";
import { McpcastError } from "./errors.ts";
import { parsePlan } from "./plan_schema.ts";
import { writeYaml } from "./plan_yaml_writer.ts";
import type { ApiPlan, McpcastPlan, ParamPlan, RouteParam, RoutePlan, ToolPlan } from "./plan_types.ts";

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
 * import { loadPlan } from "./plan_yaml.ts";
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

/** `entries` as an object without the entries whose value equals its default. */
function compact(entries: [string, unknown, unknown?][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value, fallback] of entries) {
    if (value === undefined || value === null || isDeepStrictEqual(value, fallback)) continue;
    out[key] = value;
  }
  return out;
}

function compactApi(api: ApiPlan): Record<string, unknown> {
  return {
    name: api.name,
    base_url: api.base_url,
    auth: api.auth,
    ...compact([
      ["approval", api.approval],
      ["description", api.description, ""],
      ["spec_source", api.spec_source],
      ["credential_location", api.credential_location, "header"],
      ["credential_name", api.credential_name, "Authorization"],
    ]),
  };
}

function compactRouteParam(param: RouteParam): Record<string, unknown> {
  return {
    location: param.location,
    ...compact([["required", param.required, false], ["wire_name", param.wire_name]]),
  };
}

function compactRoute(route: RoutePlan): Record<string, unknown> {
  const params = Object.fromEntries(Object.entries(route.params).map(([n, p]) => [n, compactRouteParam(p)]));
  return {
    operation_id: route.operation_id,
    method: route.method,
    path: route.path,
    ...compact([["params", params, {}], ["body_encoding", route.body_encoding, "json"], [
      "base_url",
      route.base_url,
    ]]),
  };
}

function compactParam(param: ParamPlan): Record<string, unknown> {
  return compact([
    ["description", param.description, ""],
    ["json_schema", param.json_schema, { type: "string" }],
    ["required", param.required, false],
    ["default", param.default],
    ["hidden", param.hidden, false],
  ]);
}

function compactTool(tool: ToolPlan): Record<string, unknown> {
  const params = Object.fromEntries(Object.entries(tool.params).map(([n, p]) => [n, compactParam(p)]));
  return {
    name: tool.name,
    description: tool.description,
    risk: tool.risk,
    routes: tool.routes.map(compactRoute),
    ...compact([
      ["params", params, {}],
      ["example", tool.example],
      ["requires_approval", tool.requires_approval, false],
      ["tags", tool.tags, []],
    ]),
  };
}

/**
 * The compact YAML text of a validated plan, headed by {@linkcode PLAN_HEADER}. Strings holding
 * U+0085, U+2028 or U+2029 are double-quoted with those characters escaped, so YAML 1.1 readers do
 * not take them as line breaks.
 *
 * @example
 * ```ts
 * import { loadPlan, savePlan } from "./plan_yaml.ts";
 * const text = savePlan(loadPlan("api: {name: pets, base_url: https://api.example.com}\ntools: []\n"));
 * // text ends with "version: 1\napi:\n  name: pets\n  base_url: https://api.example.com\n  auth: passthrough\n
 * // profile: read-only\ntools: []\ndropped: []\n"
 * ```
 */
export function savePlan(plan: McpcastPlan): string {
  const data = {
    version: plan.version,
    api: compactApi(plan.api),
    profile: plan.profile,
    tools: plan.tools.map(compactTool),
    dropped: plan.dropped.map((op) => ({ operation_id: op.operation_id, reason: op.reason })),
  };
  const body = writeYaml(data, LINE_WIDTH);
  return PLAN_HEADER + body;
}
