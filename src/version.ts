/**
 * The package version (checked against deno.json by `scripts/check_project.ts`).
 *
 * @module
 */

/** Agentry's version. */
export const VERSION = "0.1.0";
