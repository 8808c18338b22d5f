/**
 * Writing a generated project, with its ownership rules:
 *
 * - Derived files (header on their first line) are rewritten on every run; generated tools modules
 *   the plan no longer has are deleted.
 * - A tools module (or `deno.json`) without the header is the user's and is never overwritten. When the
 *   plan has tools in that module's group the run is refused unless `force`; with `force` the user's
 *   module is kept and still registered (it exports `register(server, upstream)`).
 * - `tests/contract.json` is written when the spec is given, else an existing one is kept and used.
 * - Scaffold files (`Dockerfile`, `.env.example`, `.gitignore`) are written only when absent.
 * - A non-empty directory without `mcpcast.plan.yaml`, or one whose plan is for another API name, is
 *   refused unless `force`.
 * - Every rendered file is syntax-checked first: a refusal or a check failure writes nothing.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { McpcastError } from "../errors.ts";
import { loadPlan, type McpcastPlan, writePlanFile } from "../plan/mod.ts";
import type { FrameworkImport } from "./framework_imports.ts";
import { hasGeneratedHeader } from "./header.ts";
import { CONTRACT_FILE, PLAN_FILE, renderProject } from "./render_project.ts";
import { SCAFFOLD_FILES } from "./render_scaffold.ts";
import { checkRenderedSyntax } from "./syntax_check.ts";

/** Options for {@linkcode writeProject}. */
export interface WriteProjectOptions {
  /** Write `mcpcast.plan.yaml` (false when regenerating from that same file). @default true */
  writePlan?: boolean;
  /** Write despite the refusals (never over a user's tools module or `deno.json`). @default false */
  force?: boolean;
  /** Where generated code finds this library (see `renderProject`). @default "jsr:@agentry/agentry@^0.1" */
  frameworkImport?: FrameworkImport;
  /**
   * The spec document the plan came from: cut into `tests/contract.json`, which the generated tests
   * check every example request against. Without it an existing contract file is kept and used.
   */
  spec?: Readonly<Record<string, unknown>>;
}

/** What {@linkcode writeProject} did, paths relative to the project directory. */
export interface WriteResult {
  /** The project directory, absolute. */
  outDir: string;
  /** Files written, in render order. */
  written: string[];
  /** Files left as they were: existing scaffold files, the user's tools modules and `deno.json`. */
  kept: string[];
  /** Generated tools modules deleted because the plan no longer has their group. */
  removed: string[];
}

const TOOLS_DIR = "src/tools";

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

async function entriesOf(dir: string): Promise<string[] | undefined> {
  try {
    const names: string[] = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    return names;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** The `api.name` of a saved plan, read without parsing the whole (possibly large) file. */
export function planApiName(text: string): string | undefined {
  const head = text.slice(0, 65_536);
  const block = /^api:[ \t]*\r?\n((?:[ \t]+.*\r?\n|[ \t]*(?:#.*)?\r?\n)*)/m.exec(head)?.[1];
  const name = block === undefined ? undefined : /^([ \t]+)name:[ \t]*(.*?)[ \t]*$/m.exec(block);
  if (name !== undefined && name !== null) {
    const indent = /^([ \t]+)\S/m.exec(block!)?.[1];
    if (name[1] === indent) return name[2].replace(/^(["'])(.*)\1$/, "$2");
  }
  try {
    return loadPlan(text).api.name;
  } catch {
    return undefined;
  }
}

async function checkDirectory(plan: McpcastPlan, outDir: string, rendered: readonly string[]): Promise<void> {
  const entries = await entriesOf(outDir);
  if (entries === undefined || entries.length === 0) return;
  const planText = await readIfExists(join(outDir, PLAN_FILE));
  if (planText === undefined) {
    const clobbered = rendered.filter((path) => entries.includes(path.split("/")[0]));
    throw new McpcastError(
      `${outDir} is not empty and has no ${PLAN_FILE}, so it is not an mcpcast project` +
        (clobbered.length > 0 ? ` (writing would replace: ${clobbered.slice(0, 8).join(", ")})` : "") +
        "; choose an empty directory, or pass --force to write there",
    );
  }
  const existing = planApiName(planText);
  if (existing !== plan.api.name) {
    throw new McpcastError(
      `${outDir} holds the project of ${
        existing === undefined ? "an unreadable plan" : `API '${existing}'`
      }, ` +
        `not '${plan.api.name}'; choose another directory, or pass --force to write over it`,
    );
  }
}

/**
 * Writes the project generated from `plan` into `outDir` (created when missing).
 *
 * @throws {McpcastError} when a rendered file does not parse, or (unless `force`) when `outDir` is not
 * empty and not an mcpcast project, holds another API's project, or has a tools module of the user's
 * where the plan puts tools. Nothing is written then.
 *
 * @example
 * ```ts ignore
 * import { mcpcast, writeProject } from "@agentry/agentry/mcpcast";
 * const plan = await mcpcast("openapi.yaml", { profile: "standard" });
 * const result = await writeProject(plan, "petstore-mcp");
 * console.log(result.written); // ["mcpcast.plan.yaml", "deno.json", "main.ts", …]
 * ```
 */
export async function writeProject(
  plan: McpcastPlan,
  outDir: string,
  options: WriteProjectOptions = {},
): Promise<WriteResult> {
  const { writePlan = true, force = false } = options;
  const root = resolve(outDir);
  // The plan file is streamed to disk at the end instead of rendered: on a large API it is megabytes
  // that would otherwise be built as one string (and encoded as a second copy) beside everything else.
  const contractKept = options.spec === undefined &&
    await readIfExists(join(root, CONTRACT_FILE)) !== undefined;
  const files = renderProject(plan, {
    frameworkImport: options.frameworkImport,
    includePlan: false,
    spec: options.spec,
    contractKept,
  });
  checkRenderedSyntax(files);
  const paths = [...(writePlan ? [PLAN_FILE] : []), ...Object.keys(files)];
  if (!force) await checkDirectory(plan, root, paths);
  const kept: string[] = [];
  const userModules: string[] = [];
  const toWrite: string[] = [];
  await Promise.all(paths.map(async (path) => {
    const scaffold = SCAFFOLD_FILES.includes(path);
    const owned = path.startsWith(`${TOOLS_DIR}/`) || path === "deno.json";
    if (!scaffold && !owned) return;
    const current = await readIfExists(join(root, path));
    if (current === undefined) return;
    if (scaffold) kept.push(path);
    else if (!hasGeneratedHeader(current)) {
      kept.push(path);
      if (path !== "deno.json") userModules.push(path);
    }
  }));
  if (userModules.length > 0 && !force) {
    throw new McpcastError(
      `${userModules.sort().join(", ")} ${
        userModules.length === 1 ? "has" : "have"
      } no generated header, so ` +
        "mcpcast leaves them to you, but the plan has tools in those groups. Pass --force to keep your " +
        "module(s) and write the rest, or restore the header line (or delete the file) to have it regenerated",
    );
  }
  for (const path of paths) if (!kept.includes(path)) toWrite.push(path);
  const removed: string[] = [];
  for (const name of (await entriesOf(join(root, TOOLS_DIR))) ?? []) {
    const path = `${TOOLS_DIR}/${name}`;
    if (!name.endsWith(".ts") || Object.hasOwn(files, path)) continue;
    const text = await readIfExists(join(root, path));
    if (text !== undefined && hasGeneratedHeader(text)) removed.push(path);
  }
  const dirs = new Set(toWrite.map((path) => dirname(join(root, path))));
  for (const dir of dirs) await Deno.mkdir(dir, { recursive: true });
  if (writePlan) writePlanFile(join(root, PLAN_FILE), plan);
  await Promise.all(
    toWrite.filter((path) => path !== PLAN_FILE).map((path) =>
      Deno.writeTextFile(join(root, path), files[path])
    ),
  );
  await Promise.all(removed.map((path) => Deno.remove(join(root, path))));
  return { outDir: root, written: toWrite, kept: kept.sort(), removed: removed.sort() };
}
