/**
 * The project's own checks (part of `deno task ok`):
 * - source files stay under 500 lines;
 * - no `any` in src/;
 * - areas talk through each other's `mod.ts` (no reaching into another area's files);
 * - mcpcast's stage folders (`load/`, `parse/`, `plan/`, `emit/`, `runtime/`, `model/`, `curate/`, `evaluate/`,
 *   `surface/` and their sub-folders) are
 *   reached from outside only through their `mod.ts`;
 * - only main.ts and src/_util/host_env.ts touch Deno.env; only main.ts touches Deno.args and Deno.exit;
 * - every import-map entry is an npm specifier;
 * - src/version.ts matches deno.json.
 *
 * @module
 */

import { dirname, join, relative, resolve } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const problems: string[] = [];

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** Tests and test helpers: `*_test.ts` and `_test_*.ts`, the two globs `publish.exclude` leaves out. */
function isTestFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.endsWith("_test.ts") || name.startsWith("_test_");
}

const IMPORT = /(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/g;

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

const STAGE_FOLDER = /^src\/mcpcast\/(load|parse|plan|emit|runtime|model|curate|evaluate|surface)\//;

/** The `mod.ts` an import of `target` from `from` must go through, when `target` is in a stage folder
 * (or deeper) that `from` is outside of. A stage may also offer an unpublished `internal.ts` face to the
 * other stages of mcpcast (Fresh's internals pattern), for what they share but users do not need. */
function stageFace(from: string, target: string): string | undefined {
  if (!STAGE_FOLDER.test(target) || !isFile(join(root, target))) return undefined; // not generated code's imports
  const parts = target.split("/");
  for (let end = 3; end < parts.length; end++) {
    const folder = parts.slice(0, end).join("/");
    if (!from.startsWith(`${folder}/`)) return `${folder}/mod.ts`;
  }
  return undefined;
}

for await (const file of walk(join(root, "src"))) {
  const rel = relative(root, file);
  const text = await Deno.readTextFile(file);
  const lines = text.split("\n").length;
  const isTest = isTestFile(rel);
  if (!isTest && lines > 500) problems.push(`${rel}: ${lines} lines (split it; the house limit is 500)`);
  if (!isTest && /(:\s*any\b|\bas any\b|<any>)/.test(text)) problems.push(`${rel}: uses 'any'`);
  if (/\bDeno\.(args|exit)\b/.test(text)) {
    problems.push(`${rel}: only main.ts may use Deno.args or Deno.exit`);
  }
  if (/\bDeno\.env\b/.test(text) && rel !== "src/_util/host_env.ts" && !isTest) {
    problems.push(`${rel}: only main.ts and src/_util/host_env.ts may read Deno.env`);
  }
  const area = rel.split("/")[1];
  for (const match of text.matchAll(IMPORT)) {
    const target = relative(root, resolve(dirname(file), match[1]));
    const stageMod = stageFace(rel, target);
    const privateTarget = target.split("/").at(-1)!.startsWith("_");
    const internalFace = stageMod?.replace(/mod\.ts$/, "internal.ts");
    if (
      stageMod !== undefined && target !== stageMod && target !== internalFace && !(isTest && !privateTarget)
    ) {
      problems.push(`${rel}: imports ${target}; use ${stageMod}`);
    }
    const parts = target.split("/");
    if (parts[0] !== "src" || parts.length < 3) continue;
    const targetArea = parts[1];
    if (targetArea === area || targetArea === "_util" || targetArea === "version.ts") continue;
    const face = parts.slice(2).join("/");
    const allowed = face === "mod.ts" || (isTest && !face.startsWith("_"));
    if (!allowed) problems.push(`${rel}: imports ${target}; use src/${targetArea}/mod.ts`);
  }
}

const config = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
for (const [name, target] of Object.entries(config.imports as Record<string, string>)) {
  if (!target.startsWith("npm:")) problems.push(`deno.json: import ${name} is not an npm specifier`);
}
const version = /VERSION = "([^"]+)"/.exec(await Deno.readTextFile(join(root, "src/version.ts")))?.[1];
if (version !== config.version) {
  problems.push(`src/version.ts says ${version}, deno.json says ${config.version}`);
}

if (problems.length > 0) {
  console.error(`project checks: ${problems.length} problem(s)\n${problems.map((p) => `- ${p}`).join("\n")}`);
  Deno.exitCode = 1;
} else {
  console.log("project checks: ok");
}
