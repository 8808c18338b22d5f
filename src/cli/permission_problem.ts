/**
 * Deno permission errors (`NotCapable`) and the system's refusals (`PermissionDenied`) as one line that
 * names the permission and the flag that grants it, instead of a stack trace.
 *
 * @module
 */

import { oneLine } from "./exit.ts";
import { YAML_DEBUG_VARIABLES } from "./permissions.ts";

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
 * What is missing and how to grant it, e.g. `needs read access to /srv/a.jsonl: add
 * --allow-read=/srv/a.jsonl (see docs/troubleshooting.md)`; undefined when `error` (or its cause) is not
 * a permission error.
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
  const match = /Requires (\w+) access(?: to "([^"]*)")?/.exec(found.message);
  if (match === null) return `missing a Deno permission: ${oneLine(found.message)} (see ${TROUBLESHOOTING})`;
  const [, kind, target] = match;
  if (kind === "env" && target !== undefined && YAML_DEBUG_VARIABLES.includes(target)) {
    // The yaml package's debug switches: ignoring them is the fix, granting them would widen the process.
    const ignore = `--ignore-env=${YAML_DEBUG_VARIABLES.join(",")}`;
    return `reading YAML looks up ${target}: add ${ignore} (see ${TROUBLESHOOTING})`;
  }
  const value = target === undefined ? "" : kind === "net" ? target.replace(/:0$/, "") : target;
  const flag = `--allow-${kind}${value === "" ? "" : `=${shellWord(value)}`}`;
  const fix = Deno.build.standalone ? `compile the binary with ${flag}` : `add ${flag}`;
  return `needs ${kind} access${
    target === undefined ? "" : ` to ${target}`
  }: ${fix} (see ${TROUBLESHOOTING})`;
}

function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
