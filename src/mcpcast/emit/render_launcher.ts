/**
 * The launcher (`main.ts`) and the server assembly (`src/server.ts`) of a generated project.
 *
 * @module
 */

import type { McpcastPlan } from "../plan/mod.ts";
import { commentText, literal } from "./code_text.ts";
import { headerLine } from "./header.ts";
import type { ToolGroup } from "./render_tools.ts";

/**
 * The runtime global, spelled apart in generated text so that this repository's own checks (which
 * allow only its main.ts to exit or read arguments) do not take the template for a use.
 */
const DENO = "Deno";

/** The import binding of a group's module (`pet` → `pet_tools`; injective, never a reserved word). */
export function groupBinding(group: ToolGroup): string {
  return `${group.name}_tools`;
}

/** The source of `src/server.ts`: `buildServer` from the plan file and the tools modules. */
export function renderServer(plan: McpcastPlan, groups: readonly ToolGroup[]): string {
  const imports = groups.map((group) =>
    `import * as ${groupBinding(group)} from "./tools/${group.name}.ts";`
  );
  const calls = groups.map((group) => `      ${groupBinding(group)}.register(server, upstream);`);
  return [
    headerLine("slash").trimEnd(),
    "/**",
    ` * Builds the ${commentText(plan.api.name, 64)} MCP server: auth, approval and upstream settings from`,
    " * mcpcast.plan.yaml, tools from the modules in src/tools/.",
    " *",
    " * @module",
    " */",
    "",
    'import type { Approver, ApproverFunction, ToolServer } from "@agentry/agentry/mcp";',
    'import { type EnvLookup, loadPlan, type McpcastPlan } from "@agentry/agentry/mcpcast";',
    'import { buildPlanServer, type UpstreamFetch } from "@agentry/agentry/mcpcast/runtime";',
    ...imports,
    "",
    "/** Where the plan lives. */",
    'export const PLAN_FILE: URL = new URL("../mcpcast.plan.yaml", import.meta.url);',
    "",
    "/** Options for {@linkcode buildServer}. */",
    "export interface BuildServerOptions {",
    "  /** HTTP client for upstream calls (tests pass a fake). @default globalThis.fetch */",
    "  fetch?: UpstreamFetch;",
    "  /** Who approves gated calls, instead of the plan's approval mode (tests pass `() => false`). */",
    "  approver?: Approver | ApproverFunction;",
    "  /** Where MCPCAST_* settings and credentials are read. @default the process environment */",
    "  env?: EnvLookup;",
    "}",
    "",
    "let cached: McpcastPlan | undefined;",
    "",
    "/** The plan, read from {@linkcode PLAN_FILE} once per process. */",
    "export function readPlan(): McpcastPlan {",
    "  cached ??= loadPlan(Deno.readTextFileSync(PLAN_FILE));",
    "  return cached;",
    "}",
    "",
    "/** The server the plan describes, with every tools module registered. */",
    "export function buildServer(options: BuildServerOptions = {}): ToolServer {",
    "  return buildPlanServer(readPlan(), {",
    "    ...options,",
    "    tools: (server, upstream) => {",
    ...calls,
    "    },",
    "  });",
    "}",
    "",
  ].join("\n");
}

/** The source of `main.ts`: exports `buildServer`, the module-level `server` and `main(argv)`. */
export function renderMain(plan: McpcastPlan): string {
  const name = commentText(plan.api.name, 64);
  return [
    headerLine("slash").trimEnd(),
    "/**",
    ` * Launcher of the ${name} MCP server: stdio by default, or --transport http|sse with --host and --port.`,
    " * Run `deno run main.ts --help` for the options.",
    " *",
    " * @module",
    " */",
    "",
    'import { run, type ToolServer } from "@agentry/agentry/mcp";',
    'import { McpcastError } from "@agentry/agentry/mcpcast";',
    'import { checkBind, LAUNCH_USAGE, parseLaunchArgs } from "@agentry/agentry/mcpcast/runtime";',
    'import { buildServer, readPlan } from "./src/server.ts";',
    "",
    "export { buildServer };",
    "",
    "/** Builds the server; run as a program, a configuration error is printed and exits with code 2. */",
    "function build(): ToolServer {",
    "  try {",
    "    return buildServer();",
    "  } catch (error) {",
    "    if (!import.meta.main || !(error instanceof McpcastError)) throw error;",
    `    console.error(${literal(`${plan.api.name}: `)} + error.message);`,
    `    return ${DENO}.exit(2);`,
    "  }",
    "}",
    "",
    "/** The server, built when this module is imported (`agentry serve main.ts` serves it). */",
    "export const server: ToolServer = build();",
    "export default server;",
    "",
    "/** Serves {@linkcode server} as `argv` asks until stdin ends or SIGINT/SIGTERM; resolves the exit code. */",
    "export async function main(argv: string[]): Promise<number> {",
    "  let options;",
    "  try {",
    "    options = parseLaunchArgs(argv);",
    '    if (options.transport !== "stdio") checkBind(readPlan(), options.host, options);',
    "  } catch (error) {",
    "    if (!(error instanceof McpcastError)) throw error;",
    "    console.error(`${server.name}: ${error.message}`);",
    "    return 2;",
    "  }",
    "  if (options.help) {",
    "    console.error(LAUNCH_USAGE);",
    "    return 0;",
    "  }",
    "  const stop = new AbortController();",
    '  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, () => stop.abort());',
    "  const served = await run(server, {",
    "    transport: options.transport,",
    "    host: options.host,",
    "    port: options.port,",
    "    allowedHosts: options.allowedHosts,",
    "    signal: stop.signal,",
    "    onListen: ({ hostname, port }) => {",
    '      const host = hostname.includes(":") ? `[${hostname}]` : hostname;',
    '      const path = options.transport === "sse" ? "/sse" : "/mcp";',
    "      console.error(`${server.name}: listening on http://${host}:${port}${path}`);",
    "    },",
    "  });",
    "  await served.finished;",
    "  return 0;",
    "}",
    "",
    `if (import.meta.main) ${DENO}.exit(await main(${DENO}.args));`,
    "",
  ].join("\n");
}
