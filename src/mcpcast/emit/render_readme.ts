/**
 * The generated project's README: what the server is, how to run and connect it, its tools and the
 * operations left out, authentication, approval, configuration, and how to change it. Every piece of
 * plan text is escaped for Markdown.
 *
 * @module
 */

import { effectiveApproval, type McpcastPlan, type ToolPlan } from "../plan/mod.ts";
import { RUNTIME_VARIABLES } from "../runtime/internal.ts";
import { firstLine, markdownCode, markdownText } from "./code_text.ts";
import { headerLine } from "./header.ts";
import { authSection, connectSection } from "./render_readme_connect.ts";
import type { ToolGroup } from "./render_tools.ts";

function row(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function routeCell(plan: McpcastPlan, tool: ToolPlan): string {
  return tool.routes.map((route) => {
    const host = route.base_url && route.base_url !== plan.api.base_url
      ? ` on ${markdownCode(route.base_url)}`
      : "";
    return `${markdownCode(`${route.method} ${route.path}`)}${host}`;
  }).join("<br>");
}

function toolsSection(plan: McpcastPlan): string[] {
  if (plan.tools.length === 0) return ["## Tools", "", "The plan has no tools.", ""];
  const meta = plan.api.tool_mode === "meta"
    ? [
      "Served in meta-tool mode (`tool_mode: meta`): clients see `search_tools`, `describe_tool` and",
      "`invoke_tool`, and reach each tool below through `invoke_tool`.",
      "",
    ]
    : [];
  return [
    "## Tools",
    "",
    ...meta,
    row(["Tool", "Risk", "Approval", "Upstream", "Description"]),
    row(["---", "---", "---", "---", "---"]),
    ...plan.tools.map((tool) =>
      row([
        markdownCode(tool.name),
        tool.risk,
        tool.requires_approval ? "required" : "—",
        routeCell(plan, tool),
        markdownText(firstLine(tool.description), 160),
      ])
    ),
    "",
  ];
}

function droppedSection(plan: McpcastPlan): string[] {
  if (plan.dropped.length === 0) return [];
  return [
    "## Not exposed",
    "",
    row(["Operation", "Reason"]),
    row(["---", "---"]),
    ...plan.dropped.map((op) => row([markdownCode(op.operation_id), markdownText(op.reason, 300)])),
    "",
  ];
}

function approvalSection(plan: McpcastPlan): string[] {
  const gated = plan.tools.filter((tool) => tool.requires_approval);
  const lines = ["## Human approval", ""];
  if (gated.length === 0) {
    return [...lines, `No tool needs approval under profile \`${plan.profile}\`.`, ""];
  }
  const shown = gated.slice(0, 40).map((tool) => markdownCode(tool.name)).join(", ") +
    (gated.length > 40 ? ` and ${gated.length - 40} more` : "");
  lines.push(`${gated.length} tools wait for a human decision before every call: ${shown}.`, "");
  if (effectiveApproval(plan.api) === "elicitation") {
    lines.push(
      // Slice E (issue 15, item 6): the no-elicitation path.
      "Mode `elicitation`: the server asks the calling client's user (MCP elicitation). A user who declines,",
      "or no answer within `MCPCAST_APPROVAL_TIMEOUT`, is `APPROVAL_DENIED`. A client that cannot be asked",
      "(no elicitation support) gets `APPROVAL_REQUIRED`, and the server writes a one-time code for that exact",
      "call to its stderr: give it to the agent (argument `approval_code`) only if you approve the call.",
    );
  } else {
    lines.push(
      "Mode `pending`: gated calls wait in a queue. A client holding the `approver` role lists them with",
      "`approvals_list` and decides with `approvals_decide`; reviewers see only their own tenant's requests,",
      "and nobody approves their own call.",
    );
  }
  lines.push(
    "",
    "`MCPCAST_APPROVE=tool1,tool2` approves those gated tools for good (no question asked); use it only for",
    "tools you would approve every time.",
  );
  const fixed = plan.tools.flatMap((tool) =>
    Object.entries(tool.params).filter(([, param]) => param.hidden && param.default !== undefined)
      .map(([name, param]) =>
        `- ${markdownCode(tool.name)} always sends ${
          markdownCode(`${name}=${JSON.stringify(param.default)}`)
        }`
      )
  );
  if (fixed.length > 0) lines.push("", "Fixed values the agent cannot change:", "", ...fixed);
  return [...lines, ""];
}

function configSection(plan: McpcastPlan): string[] {
  const variables = RUNTIME_VARIABLES.filter((variable) =>
    variable.modes === undefined || variable.modes.includes(plan.api.auth)
  );
  return [
    "## Configuration",
    "",
    "Environment variables (`deno task start` also reads `.env`; variables already set win):",
    "",
    row(["Variable", "Default", "Meaning"]),
    row(["---", "---", "---"]),
    ...variables.map((variable) =>
      row([markdownCode(variable.name), markdownText(variable.default), markdownText(variable.meaning)])
    ),
    "",
  ];
}

function layoutSection(groups: readonly ToolGroup[]): string[] {
  const sample = groups[0]?.path ?? "src/tools/<group>.ts";
  return [
    "## Project layout",
    "",
    row(["Path", "What", "Rewritten by mcpcast"]),
    row(["---", "---", "---"]),
    row(["`mcpcast.plan.yaml`", "the source of truth: tools, risk, approval, upstream", "from a spec only"]),
    row(["`main.ts`", "launcher: stdio, or `--transport http` (or `sse`) with `--host` and `--port`", "yes"]),
    row(["`src/server.ts`", "`buildServer()`: the plan plus the tools modules", "yes"]),
    row([
      markdownCode(sample),
      "one module per group, `register(server, upstream)`",
      "while it has its first line",
    ]),
    row(["`tests/tools_test.ts`", "tests against a fake upstream", "yes"]),
    row([
      "`README.md`, `deno.json`",
      "this file, tasks and imports",
      "yes (`deno.json`: while it has its first line)",
    ]),
    row([
      "`Dockerfile`, `.env.example`, `.gitignore`",
      "image, settings template, ignore list",
      "no: written once",
    ]),
    "",
  ];
}

/** The README of the project generated from `plan`. */
export function renderReadme(plan: McpcastPlan, groups: readonly ToolGroup[]): string {
  const { api } = plan;
  const gated = plan.tools.filter((tool) => tool.requires_approval).length;
  const source = api.spec_source === null ? "an OpenAPI description" : markdownCode(api.spec_source);
  const stdio = api.auth === "env-token" || api.auth === "none";
  return [
    headerLine("html").trimEnd(),
    `# ${markdownText(api.name, 80)} MCP server`,
    "",
    `Generated by \`agentry mcpcast\` from ${source} (profile \`${plan.profile}\`, auth \`${api.auth}\`).`,
    api.description.trim() === "" ? "" : `\n${markdownText(api.description, 600)}\n`,
    `- Upstream: ${markdownCode(api.base_url)}`,
    `- Tools: ${plan.tools.length} (${gated} need a human's approval)`,
    `- Not exposed: ${plan.dropped.length} operations (see below)`,
    "",
    "## Run",
    "",
    "```sh",
    "cp .env.example .env   # then fill it in",
    stdio
      ? "deno task start        # stdio, for a local AI client"
      : "deno task start:http   # streamable HTTP on http://127.0.0.1:8080/mcp",
    stdio
      ? "deno task start:http   # streamable HTTP on http://127.0.0.1:8080/mcp"
      : "deno task start        # stdio",
    "deno task test         # the generated tests: fake upstream, no network",
    "deno task check        # type-check everything",
    "```",
    "",
    ...layoutSection(groups),
    ...connectSection(plan),
    ...toolsSection(plan),
    ...droppedSection(plan),
    ...authSection(plan),
    ...approvalSection(plan),
    ...configSection(plan),
    "## Change the tool surface",
    "",
    "Edit `mcpcast.plan.yaml` (names, descriptions, parameters, examples, risk, approval, the dropped list),",
    "then regenerate: `agentry mcpcast --plan mcpcast.plan.yaml --out .`. Descriptions, parameters and",
    "routes are read from the plan at start-up; adding or renaming tools needs the regeneration. To own a",
    "tools module, delete its first line: mcpcast then never overwrites it, and refuses to run until you",
    "pass `--force` while the plan still has tools in that group (your module keeps registering them).",
    "",
    "The spec is trusted input: its descriptions reach the model as tool descriptions. Review the plan",
    "before serving it.",
    "",
  ].join("\n");
}
