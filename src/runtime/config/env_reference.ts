/**
 * The `${VAR}` reference syntax of config values. Finding and resolving references lives in
 * `../policy/env_refs.ts`; this file only owns the syntax, so schemas can recognise references too.
 *
 * @module
 */

/** Name rule of a referenced variable. */
export const ENV_VARIABLE_NAME: RegExp = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Source of the `${VAR}` pattern; build a fresh global RegExp from it to iterate matches. */
export const ENV_REFERENCE_SOURCE = "\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\}";

/** A new global RegExp matching `${VAR}`, with the variable name in group 1. */
export function envReferencePattern(): RegExp {
  return new RegExp(ENV_REFERENCE_SOURCE, "g");
}

/** True when `text` holds at least one `${VAR}` reference. */
export function hasEnvReference(text: string): boolean {
  return text.includes("${") && new RegExp(ENV_REFERENCE_SOURCE).test(text);
}

/** Names of the variables `text` references, in order of appearance (repeats kept). */
export function envReferenceNames(text: string): string[] {
  // Most strings of a config hold no reference: a substring test is far cheaper than a fresh RegExp.
  if (!text.includes("${")) return [];
  return Array.from(text.matchAll(envReferencePattern()), (match) => match[1]);
}
