/**
 * Rendering a plan into the files of a Deno project (path → text), without touching the disk.
 *
 * | Path | Kind |
 * |---|---|
 * | `mcpcast.plan.yaml` | the plan (when `includePlan`) |
 * | `deno.json` | derived: tasks `start`, `start:http`, `test`, `check`; the import map |
 * | `main.ts` | derived: launcher exporting `buildServer`, `server`, `main(argv)` |
 * | `src/server.ts` | derived: `buildServer({ fetch, approver, env })` |
 * | `src/tools/<group>.ts` | derived while it has its header line, then the user's |
 * | `tests/tools_test.ts` | derived: tests against a fake upstream |
 * | `tests/contract.json` | derived from the spec (when given): the operations the contract test checks |
 * | `README.md` | derived |
 * | `Dockerfile`, `.env.example`, `.gitignore` | scaffold: written only when absent |
 *
 * @module
 */

import { type McpcastPlan, savePlan } from "../plan/mod.ts";
import { type FrameworkImport, frameworkImports } from "./framework_imports.ts";
import { CONFIG_HEADER_TEXT, headerLine } from "./header.ts";
import { renderMain, renderServer } from "./render_launcher.ts";
import { renderReadme } from "./render_readme.ts";
import { renderDockerfile, renderEnvExample, renderGitignore } from "./render_scaffold.ts";
import { operationContracts } from "./operation_contracts.ts";
import { renderTests } from "./render_tests.ts";
import { renderToolsModule, toolGroups } from "./render_tools.ts";

/** The contract file: the spec operations the tools call, checked by the generated tests. */
export const CONTRACT_FILE: string = "tests/contract.json";

/** The plan file's name. */
export const PLAN_FILE: string = "mcpcast.plan.yaml";

/** Options for {@linkcode renderProject}. */
export interface RenderProjectOptions {
  /**
   * Where generated code finds this library: a registry specifier, the `file:` URL of a checkout, or
   * import-map entries. @default "jsr:@agentry/agentry@^0.1"
   */
  frameworkImport?: FrameworkImport;
  /** Include `mcpcast.plan.yaml` (rendered with `savePlan`). @default true */
  includePlan?: boolean;
  /**
   * The spec document the plan came from (as loaded): its operations are cut into
   * `tests/contract.json` and the generated tests check every example request against them.
   */
  spec?: Readonly<Record<string, unknown>>;
  /** The project already has `tests/contract.json` (kept when no `spec` is given). @default false */
  contractKept?: boolean;
}

const RUN_FLAGS = "--allow-net --allow-read=. --allow-env --env-file=.env";

/**
 * The text of `deno.json`. `unstable: ["no-legacy-abort"]`: Deno 2.9's `Deno.serve` otherwise aborts
 * `request.signal` after every successful response and warns once when a handler read it (the MCP SDK
 * does, on 2026-07-28 requests); the new behaviour aborts it only when the client goes away.
 */
export function renderDenoJson(imports: Readonly<Record<string, string>>): string {
  const config = {
    unstable: ["no-legacy-abort"],
    tasks: {
      start: `deno run ${RUN_FLAGS} main.ts`,
      "start:http": `deno run ${RUN_FLAGS} main.ts --transport http`,
      test: "deno test --allow-read=. --allow-env",
      check: "deno check main.ts src/ tests/",
    },
    imports,
  };
  return `${headerLine("slash", CONFIG_HEADER_TEXT)}${JSON.stringify(config, null, 2)}\n`;
}

/**
 * A JSON replacer: a schema with a `$ref` into another document becomes `{}` (unchecked), so no URL
 * of the spec's external references (perhaps with credentials) is written into the project.
 */
function localRefsOnly(_key: string, value: unknown): unknown {
  const ref = (value as { $ref?: unknown } | null)?.$ref;
  return typeof ref === "string" && !ref.startsWith("#") ? {} : value;
}

/**
 * The files of the project generated from `plan`, by path relative to the project directory.
 *
 * @throws {McpcastError} for a tool name that is not a valid tool name, or a `frameworkImport` that
 * cannot be resolved.
 *
 * @example
 * ```ts ignore
 * const files = renderProject(plan);
 * Object.keys(files); // ["mcpcast.plan.yaml", "deno.json", "main.ts", "src/server.ts", "src/tools/pet.ts", …]
 * ```
 */
export function renderProject(plan: McpcastPlan, options: RenderProjectOptions = {}): Record<string, string> {
  const groups = toolGroups(plan);
  const files: Record<string, string> = {};
  if (options.includePlan ?? true) files[PLAN_FILE] = savePlan(plan);
  files["deno.json"] = renderDenoJson(frameworkImports(options.frameworkImport));
  files["main.ts"] = renderMain(plan);
  files["src/server.ts"] = renderServer(plan, groups);
  for (const group of groups) files[group.path] = renderToolsModule(group);
  if (options.spec !== undefined) {
    files[CONTRACT_FILE] = `${JSON.stringify(operationContracts(options.spec, plan), localRefsOnly)}\n`;
  }
  files["tests/tools_test.ts"] = renderTests(plan, {
    contract: options.spec !== undefined || (options.contractKept ?? false),
  });
  files["README.md"] = renderReadme(plan, groups);
  files["Dockerfile"] = renderDockerfile(plan);
  files[".env.example"] = renderEnvExample(plan);
  files[".gitignore"] = renderGitignore();
  return files;
}
