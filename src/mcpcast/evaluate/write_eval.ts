/**
 * Writing an evaluation into a project: `eval/tasks.yaml` (the tasks, to run the same evaluation
 * again), `eval/report.json` and `eval/report.md`. Each file is written to a temporary file beside it
 * and renamed into place, so an interrupted run leaves either the old file or the new one.
 *
 * @module
 */

import { join } from "node:path";
import { stringify } from "yaml";
import { renderEvalMarkdown } from "./render.ts";
import type { EvalReport, EvalTask } from "./types.ts";

/** The files {@linkcode writeEval} writes, relative to the project directory. */
export const EVAL_FILES = ["eval/tasks.yaml", "eval/report.json", "eval/report.md"] as const;

/** `tasks` as `eval/tasks.yaml` holds them (an empty rationale left out). */
export function tasksYaml(tasks: readonly EvalTask[]): string {
  const list = tasks.map((task) => ({
    id: task.id,
    prompt: task.prompt,
    expected_tool: task.expected_tool,
    ...(task.rationale ? { rationale: task.rationale } : {}),
  }));
  return stringify({ tasks: list }, { lineWidth: 100 });
}

/** Writes `text` to `path` through a temporary file and a rename. */
async function writeAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Writes `report` and `tasks` under `outDir/eval/` (created when missing); returns the paths written.
 *
 * @example
 * ```ts ignore
 * const report = await evaluate(plan, (o) => buildPlanServer(plan, o), { model: "ollama:qwen3" });
 * await writeEval(report, report.results.map((r) => r.task), "./petstore-mcp");
 * ```
 */
export async function writeEval(
  report: EvalReport,
  tasks: readonly EvalTask[],
  outDir: string,
): Promise<string[]> {
  await Deno.mkdir(join(outDir, "eval"), { recursive: true });
  const texts = [tasksYaml(tasks), `${JSON.stringify(report, null, 2)}\n`, renderEvalMarkdown(report)];
  const paths = EVAL_FILES.map((file) => join(outDir, file));
  for (const [i, path] of paths.entries()) await writeAtomic(path, texts[i]);
  return paths;
}
