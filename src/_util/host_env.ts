/**
 * Reading the host environment. Besides `main.ts`, this is the only module that touches `Deno.env`:
 * library users get `${VAR}` resolution without passing a lookup of their own.
 *
 * @module
 */

/**
 * The value of a host environment variable; `undefined` when unset, when Deno denies access, or when
 * reading it would make Deno ask the user (library code never triggers a permission prompt).
 */
export function hostEnv(name: string): string | undefined {
  try {
    if (!mayReadHostEnv(name)) return undefined;
    return Deno.env.get(name);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return undefined;
    }
    throw error;
  }
}

/** Whether the process may read the host variable `name` now (granted: not denied, and not asking). */
export function mayReadHostEnv(name: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "env", variable: name }).state === "granted";
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return false;
    }
    throw error;
  }
}

/**
 * Why the host variable `name` reads as unset, worded to follow `agentry: `: `"NAME is not set"`, or, when
 * the process lacks the env permission for it (the variable may well be set),
 * `"may not read NAME: run with --allow-env=NAME"`.
 */
export function unsetVariableReason(name: string): string {
  return mayReadHostEnv(name) ? `${name} is not set` : `may not read ${name}: run with --allow-env=${name}`;
}

/**
 * Why library code may not read a host variable (the Deno flag that grants it), or undefined when it may.
 * For messages about a `${VAR}` that resolved to nothing through {@linkcode hostEnv}.
 */
export function hostEnvUnreadable(name: string): string | undefined {
  return mayReadHostEnv(name) ? undefined : `run deno with --allow-env=${name}`;
}
