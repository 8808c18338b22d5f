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
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") return undefined;
    return Deno.env.get(name);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return undefined;
    }
    throw error;
  }
}

/**
 * Why library code may not read a host variable (the Deno flag that grants it), or undefined when it may.
 * For messages about a `${VAR}` that resolved to nothing through {@linkcode hostEnv}.
 */
export function hostEnvUnreadable(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state === "granted") return undefined;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied)) {
      throw error;
    }
  }
  return `this process has no permission to read it (run deno with --allow-env=${name})`;
}
