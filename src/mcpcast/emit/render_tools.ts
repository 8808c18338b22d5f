/**
 * The tools modules of a generated project: one `src/tools/<group>.ts` per group (named by
 * `groupFor`: the first tag, else the first plain path segment), each exporting
 * `register(server, upstream)` with one explicit `server.tool(...)` per tool. The tool's options come
 * from the plan at start-up (`planToolOptions`), so a module stays short and edits to the plan need
 * no regeneration unless tools are added or renamed.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import { groupFor, type McpcastPlan, TOOL_NAME_PATTERN, type ToolPlan } from "../plan/mod.ts";
import { commentText, firstLine, literal } from "./code_text.ts";
import { headerLine } from "./header.ts";

/** One tools module: its group, path and tools in plan order. */
export interface ToolGroup {
  /** Group name (`pet`, `pet_store`): a lower snake identifier. */
  name: string;
  /** Path in the project, `src/tools/<name>.ts`. */
  path: string;
  /** The group's tools, in plan order. */
  tools: ToolPlan[];
}

/** The group a tool's module is named after: its first tag, else its first route's path. */
export function toolGroupName(tool: ToolPlan): string {
  return groupFor({ tags: tool.tags, path: tool.routes[0]?.path ?? "/" });
}

/**
 * The tools modules of `plan`, in order of first appearance.
 *
 * @throws {McpcastError} when a tool name is not a valid tool name (it becomes a property name in code).
 */
export function toolGroups(plan: McpcastPlan): ToolGroup[] {
  const groups = new Map<string, ToolGroup>();
  for (const tool of plan.tools) {
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      throw new McpcastError(
        `tool name '${commentText(tool.name, 64)}' must match ${TOOL_NAME_PATTERN.source}`,
      );
    }
    const name = toolGroupName(tool);
    let group = groups.get(name);
    if (group === undefined) {
      group = { name, path: `src/tools/${name}.ts`, tools: [] };
      groups.set(name, group);
    }
    group.tools.push(tool);
  }
  return [...groups.values()];
}

/** `name (risk, requires approval)`. */
function toolLabel(tool: ToolPlan): string {
  return `${tool.name} (${tool.risk}${tool.requires_approval ? ", requires approval" : ""})`;
}

function routesText(tool: ToolPlan): string {
  return tool.routes.map((route) => `${route.method} ${route.path}`).join(" | ");
}

/** The source of one tools module. */
export function renderToolsModule(group: ToolGroup): string {
  const summary = group.tools.map((tool) =>
    ` * - ${toolLabel(tool)}: ${commentText(firstLine(tool.description), 100)}`
  );
  const names = group.tools.map((tool) => literal(tool.name));
  const namesLine = `  const TOOLS = upstream.pick([${names.join(", ")}]);`;
  const pick = namesLine.length <= 110
    ? namesLine
    : `  const TOOLS = upstream.pick([\n${names.map((name) => `    ${name},`).join("\n")}\n  ]);`;
  const registrations = group.tools.map((tool) =>
    [
      `  // ${commentText(`${toolLabel(tool)}: ${routesText(tool)}`, 200)}`,
      "  server.tool(",
      `    ${literal(tool.name)},`,
      `    planToolOptions(TOOLS.${tool.name}),`,
      `    (args, ctx) => upstream.call(TOOLS.${tool.name}, args, ctx),`,
      "  );",
    ].join("\n")
  );
  return [
    headerLine("slash").trimEnd(),
    "/**",
    ` * Tools for ${group.name}, generated from mcpcast.plan.yaml:`,
    ...summary,
    " *",
    " * Descriptions, parameters and routes come from the plan when the server starts: change them there.",
    " * To change what a handler does, remove the first line of this file (it is then yours and is",
    " * never overwritten) and edit the handler.",
    " *",
    " * @module",
    " */",
    "",
    'import type { ToolServer } from "@agentry/agentry/mcp";',
    'import { planToolOptions, type Upstream } from "@agentry/agentry/mcpcast/runtime";',
    "",
    `/** Registers the ${group.name} tools on \`server\`; each calls the upstream API through \`upstream\`. */`,
    "export function register(server: ToolServer, upstream: Upstream): void {",
    pick,
    "",
    registrations.join("\n\n"),
    "}",
    "",
  ].join("\n");
}
