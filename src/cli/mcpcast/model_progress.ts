/**
 * The lines `agentry mcpcast` shows on stderr while a model works: each curation attempt (and how many
 * rules a failed one broke), and each evaluation task as it ends (✓ or ✗, the tool expected and the
 * tools called). Unlike the phases of a large spec they are always shown: model calls take seconds
 * on any spec. Model text is shown clipped to one line, stripped of control characters.
 *
 * @module
 */

import type { CurationProgress, EvalProgress } from "../../mcpcast/mod.ts";
import type { Progress } from "./progress.ts";

const SHOWN = 100;

/** `text` on one line, without control characters, at most `width` characters. */
export function clipLine(text: string, width = SHOWN): string {
  const line = text
    // deno-lint-ignore no-control-regex
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "") // terminal escape sequences (colours, cursor moves)
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Shows curation as it goes: `curating with M: attempt k/n`, then a failed attempt's violations. */
export function curationProgress(progress: Progress, model: string): (event: CurationProgress) => void {
  let maxAttempts = 0;
  return (event) => {
    if (event.kind === "attempt") {
      maxAttempts = event.maxAttempts;
      progress.note(`curating with ${model}: attempt ${event.attempt}/${event.maxAttempts}`);
    } else if (event.kind === "violations") {
      const first = event.violations[0] ?? "";
      const retry = event.attempt < maxAttempts ? "; asking again" : "";
      progress.note(
        `attempt ${event.attempt}/${maxAttempts}: ${plural(event.violations.length, "violation")}${retry}` +
          (first === "" ? "" : ` (${clipLine(first)})`),
      );
    } else {
      progress.note(
        `curated: ${plural(event.tools, "tool")}, ${event.dropped} not exposed ` +
          `(${plural(event.attempts, "attempt")})`,
      );
    }
  };
}

/** Shows each evaluation task as it ends: `eval 3/20 ✓ t3 list_pets` or `✗ ... called a → b`. */
export function evaluationProgress(progress: Progress): (event: EvalProgress) => void {
  return (event) => {
    if (event.kind === "task_started") return;
    const { result } = event;
    const mark = result.success ? "✓" : "✗";
    const called = result.calls.map((call) => `${call.tool}${call.ok ? "" : " ✗"}`).join(" → ");
    const what = result.error !== undefined
      ? `crashed: ${clipLine(result.error, 80)}`
      : result.success && result.selectedFirst
      ? ""
      : `called ${called === "" ? "nothing" : clipLine(called, 80)}`;
    progress.note(
      `eval task ${event.index}/${event.total} ${mark} ${clipLine(event.task.id, 20)} ` +
        `${clipLine(event.task.expected_tool, 64)}${what === "" ? "" : ` (${what})`}`,
    );
  };
}
