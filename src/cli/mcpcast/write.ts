/**
 * The write step of `agentry mcpcast` and its guided setup: the output-directory checks the command
 * adds to `writeProject`'s own, the plan-only write, and the project write.
 *
 * @module
 */

import { join } from "node:path";
import { describeError } from "../../_util/errors.ts";
import { permissionFailure } from "../../_util/permission_hint.ts";
import { type McpcastPlan, writePlanFile, writeProject } from "../../mcpcast/mod.ts";
import type { WriteOutcome } from "./report.ts";
import { CliFailure } from "../exit.ts";

/** The plan file's name in a project. */
export const PLAN_FILE = "mcpcast.plan.yaml";

/** What an output directory holds: nothing, an mcpcast project (a plan), or something else. */
export type OutDirState = "missing" | "empty" | "project" | "foreign";

/** What to write where. */
export interface CastTarget {
  /** The plan to write. */
  plan: McpcastPlan;
  /** The output directory, absolute. */
  outDir: string;
  /** The output directory as the user gave it (or its default), for messages. */
  shownDir: string;
  /** Write the plan file too (false when regenerating from that same file). */
  writePlan: boolean;
  /** Write only the plan file. */
  planOnly: boolean;
  /** Write over what the checks would refuse. */
  force: boolean;
  /** The plan comes from a spec (not from a plan file), so an existing plan would be replaced. */
  fromSpec: boolean;
  /**
   * `--framework-import`: where the project finds the library. @default the import map of the
   * project's existing `deno.json`, else the published package
   */
  frameworkImport?: string;
  /** The spec document, for the project's contract tests (issue 15 slice F). */
  spec?: Readonly<Record<string, unknown>>;
}

/** What `dir` holds. */
export async function outDirState(dir: string): Promise<OutDirState> {
  let entries: string[];
  try {
    entries = [];
    for await (const entry of Deno.readDir(dir)) {
      entries.push(entry.name);
      if (entry.name === PLAN_FILE) return "project";
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "missing";
    const denied = permissionFailure(error, { name: "read", path: dir });
    throw new CliFailure(
      denied === undefined ? `cannot read ${dir}: ${describeError(error)}` : `mcpcast: ${denied}`,
    );
  }
  return entries.length === 0 ? "empty" : "foreign";
}

/**
 * The refusals the command adds: a plan from a spec never silently replaces an existing (perhaps
 * edited) plan, and a plan alone is not dropped into a directory that is not a project.
 */
export async function checkOutDir(target: CastTarget): Promise<void> {
  if (target.force) return;
  const state = await outDirState(target.outDir);
  if (state === "project" && target.fromSpec) {
    throw new CliFailure(
      `${target.shownDir} already has ${PLAN_FILE}, which may hold your edits: regenerate from it with ` +
        `'agentry mcpcast --plan ${join(target.shownDir, PLAN_FILE)}', or pass --force to replace it with ` +
        "a plan from SOURCE",
    );
  }
  if (state === "foreign" && target.planOnly) {
    throw new CliFailure(
      `${target.shownDir} is not empty and is not an mcpcast project (no ${PLAN_FILE}); choose another ` +
        "--out, or pass --force to write the plan there",
    );
  }
}

/** Whether `error` is one of Deno's I/O errors (permission, missing parent, read-only file system…). */
function isFileSystemError(error: unknown): boolean {
  return Object.values(Deno.errors).some((kind) => error instanceof kind);
}

/**
 * The import map of the project's `deno.json` (after its generated header line), so that regenerating
 * without `--framework-import` keeps the library source chosen before; `undefined` when there is none.
 */
export async function currentImports(outDir: string): Promise<Record<string, string> | undefined> {
  let config: unknown;
  try {
    const text = await Deno.readTextFile(join(outDir, "deno.json"));
    config = JSON.parse(text.replace(/^\/\/.*\n/, ""));
  } catch {
    return undefined;
  }
  const imports = typeof config === "object" && config !== null && "imports" in config
    ? config.imports
    : undefined;
  if (typeof imports !== "object" || imports === null || Array.isArray(imports)) return undefined;
  const entries = Object.entries(imports);
  if (entries.length === 0 || entries.some(([, target]) => typeof target !== "string" || target === "")) {
    return undefined;
  }
  return Object.fromEntries(entries);
}

/** Writes the plan alone, or the whole project; the files come back relative to the directory. */
export async function writeCast(target: CastTarget): Promise<WriteOutcome> {
  const outcome = { shownDir: target.shownDir, outDir: target.outDir, planOnly: target.planOnly };
  try {
    if (target.planOnly) {
      await Deno.mkdir(target.outDir, { recursive: true });
      writePlanFile(join(target.outDir, PLAN_FILE), target.plan);
      return { ...outcome, files: [PLAN_FILE], kept: [], removed: [] };
    }
    const result = await writeProject(target.plan, target.outDir, {
      writePlan: target.writePlan,
      force: target.force,
      frameworkImport: target.frameworkImport ?? await currentImports(target.outDir),
      spec: target.spec,
    });
    return { ...outcome, files: result.written, kept: result.kept, removed: result.removed };
  } catch (error) {
    const denied = permissionFailure(error, { name: "write", path: target.shownDir });
    if (denied !== undefined) throw new CliFailure(`mcpcast: ${denied}`);
    if (isFileSystemError(error)) {
      throw new CliFailure(`cannot write ${target.shownDir}: ${describeError(error)}`);
    }
    throw error;
  }
}
