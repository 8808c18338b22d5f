/**
 * Reading the host environment. Besides `main.ts`, this is the only module that touches `Deno.env`:
 * library users get `${VAR}` resolution without passing a lookup of their own.
 *
 * @module
 */

/** The value of a host environment variable; `undefined` when unset or when Deno denies access. */
export function hostEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return undefined;
    }
    throw error;
  }
}
