/**
 * Deno permission errors (`NotCapable`) and the system's refusals (`PermissionDenied`) as one line that
 * names the permission and the flag that grants it, instead of a stack trace.
 *
 * @module
 */

import { oneLine } from "./exit.ts";
import { permissionHint, yamlEnvFailure } from "../_util/permission_hint.ts";
import { shellQuote } from "../_util/shell_quote.ts";
import { unsetVariableReason } from "../_util/host_env.ts";

/** Where the permission answers are explained. */
export const TROUBLESHOOTING = "docs/troubleshooting.md";

/** The permission error in `error` or its causes, if any. */
export function findPermissionError(error: unknown): Error | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof Deno.errors.NotCapable || current instanceof Deno.errors.PermissionDenied) {
      return current;
    }
    current = current.cause;
  }
  return undefined;
}

/**
 * What is missing and how to grant it, in the words of `src/_util/permission_hint.ts` (one wording for
 * every command), e.g. `may not read /srv/a.jsonl: run with --allow-read=/srv/a.jsonl (see
 * docs/troubleshooting.md)`; undefined when `error` (or its cause) is not a permission error.
 *
 * @example
 * ```ts
 * import { permissionProblem } from "./permission_problem.ts";
 * try {
 *   await Deno.readTextFile("/etc/hostname");
 * } catch (error) {
 *   console.error(`agentry: ${permissionProblem(error)}`);
 * }
 * ```
 */
export function permissionProblem(error: unknown): string | undefined {
  const found = findPermissionError(error);
  if (found === undefined) return undefined;
  if (found instanceof Deno.errors.PermissionDenied) {
    return `the system refused access: ${oneLine(found.message)} (check the owner and mode of the file)`;
  }
  const yaml = yamlEnvFailure(found);
  if (yaml !== undefined) return `${yaml} (see ${TROUBLESHOOTING})`;
  const match = /Requires (\w+) access(?: to "([^"]*)")?/.exec(found.message);
  if (match === null) return `missing a Deno permission: ${oneLine(found.message)} (see ${TROUBLESHOOTING})`;
  const [, kind, target] = match;
  return `${hint(kind, target)} (see ${TROUBLESHOOTING})`;
}

function hint(kind: string, target: string | undefined): string {
  if (target !== undefined && (kind === "read" || kind === "write")) {
    return fix(permissionHint({ name: kind, path: target }));
  }
  if (target !== undefined && kind === "net") {
    return fix(permissionHint({ name: "net", host: target.replace(/:0$/, "") }));
  }
  if (target !== undefined && kind === "env") return fix(unsetVariableReason(target));
  const flag = `--allow-${kind}${target === undefined ? "" : `=${shellQuote(target)}`}`;
  const what = kind === "run"
    ? `run ${target ?? "programs"}`
    : kind === "env"
    ? "read environment variables"
    : `use ${kind}${target === undefined ? "" : ` ${target}`}`;
  return fix(`may not ${what}: run with ${flag}`);
}

/** A compiled binary cannot take flags: it must be compiled with them. */
function fix(text: string): string {
  return Deno.build.standalone ? text.replace(": run with ", ": compile the binary with ") : text;
}
