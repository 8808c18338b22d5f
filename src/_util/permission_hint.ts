/**
 * Deno permissions in a user's words: whether one is held (asked without ever showing Deno's prompt),
 * and the one-line answer that names the flag to add.
 *
 * @module
 */

import { dirname } from "node:path";
import { shellQuote } from "./shell_quote.ts";

/**
 * A permission a command needs: read or write of a path (as the user gave it), or a network host (as
 * the flag names it; `query`, e.g. `host:443`, is what is asked, so that a grant of `host:port` counts).
 */
export type NeededPermission =
  | { name: "read" | "write"; path: string }
  | { name: "net"; host: string; query?: string };

/** `--allow-read=PATH`, quoted for a POSIX shell when the value needs it. */
function flag(name: string, value: string): string {
  return shellQuote(`--allow-${name}=${value}`);
}

/**
 * `may not write to ./x-mcp: run with --allow-write=./x-mcp (or --allow-write=.)`: what is refused and
 * the flag that grants it (for a path, also its parent directory unless that is the root).
 */
export function permissionHint(needed: NeededPermission): string {
  if (needed.name === "net") {
    return `may not connect to ${needed.host}: run with ${flag("net", needed.host)}`;
  }
  const verb = needed.name === "read" ? "read" : "write to";
  const parent = dirname(needed.path);
  const wider = parent === needed.path || parent === "/" || /^[A-Za-z]:[\\/]?$/.test(parent)
    ? ""
    : ` (or ${flag(needed.name, parent)})`;
  return `may not ${verb} ${needed.path}: run with ${flag(needed.name, needed.path)}${wider}`;
}

/** The state of a permission; a descriptor Deno cannot read (an odd host) counts as not granted. */
function stateOf(descriptor: Deno.PermissionDescriptor): Deno.PermissionState {
  try {
    return Deno.permissions.querySync(descriptor).state;
  } catch {
    return "prompt";
  }
}

/**
 * The hint for the first permission of `needed` that is not granted, or undefined when all are.
 * Uses `Deno.permissions.querySync`, so Deno never asks on the terminal.
 */
export function missingPermission(needed: readonly NeededPermission[]): string | undefined {
  for (const one of needed) {
    const descriptor: Deno.PermissionDescriptor = one.name === "net"
      ? { name: "net", host: one.query ?? one.host }
      : { name: one.name, path: one.path };
    if (stateOf(descriptor) !== "granted") return permissionHint(one);
  }
  return undefined;
}

/**
 * The one-line answer for `error` when it is a permission error while using `needed`: the flag to add
 * for Deno's refusal (`NotCapable`), the owner and mode to check for the system's (`PermissionDenied`);
 * undefined for any other error.
 */
export function permissionFailure(error: unknown, needed: NeededPermission): string | undefined {
  if (error instanceof Deno.errors.NotCapable) return permissionHint(needed);
  if (!(error instanceof Deno.errors.PermissionDenied)) return undefined;
  const what = needed.name === "net" ? needed.host : needed.path;
  return `the system refused access to ${what} (check its owner and mode)`;
}

/**
 * Variables the `yaml` package looks up (through `process.env`) on every parse: its debug switches.
 * Commands run with `--ignore-env=LOG_STREAM,LOG_TOKENS`, so these reads answer "unset" without the
 * process holding a permission for them.
 */
export const YAML_DEBUG_VARIABLES: readonly string[] = ["LOG_STREAM", "LOG_TOKENS"];

/** What to do about the `yaml` package's look-ups: ignore the variables, not grant them. */
const YAML_ENV_HINT = `the yaml library looks up ${YAML_DEBUG_VARIABLES.join(" and ")}: run with ` +
  `--ignore-env=${YAML_DEBUG_VARIABLES.join(",")}`;

/**
 * The one-line answer when `error` is Deno refusing the `yaml` package's look-up of its debug variables
 * (`LOG_STREAM`, `LOG_TOKENS`): they are best ignored, not granted. Undefined for any other error.
 */
export function yamlEnvFailure(error: unknown): string | undefined {
  if (!(error instanceof Deno.errors.NotCapable)) return undefined;
  return YAML_DEBUG_VARIABLES.some((name) => error.message.includes(`"${name}"`)) ? YAML_ENV_HINT : undefined;
}

/**
 * The same answer before parsing YAML, when a look-up would make Deno ask on the terminal (or refuse):
 * neither granted nor ignored (`--ignore-env` reads as denied and answers "unset"). Undefined otherwise.
 */
export function yamlEnvMissing(): string | undefined {
  const ask = YAML_DEBUG_VARIABLES.some((variable) => stateOf({ name: "env", variable }) === "prompt");
  return ask ? YAML_ENV_HINT : undefined;
}
