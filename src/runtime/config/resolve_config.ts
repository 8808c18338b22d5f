/**
 * Resolving a process config at start: its `${VAR}` references replaced from the host environment, and
 * the issues of references that do not resolve (named by field and variable, never by value).
 *
 * Not exported through `mod.ts`: it uses `../policy/mod.ts`, which imports `./mod.ts`.
 *
 * @module
 */

import { type ConfigIssue, parseProcessConfig, ROOT_FIELD } from "./issues.ts";
import type { ProcessConfig } from "./process_config.ts";
import type { EnvLookup } from "../process_parts.ts";
import { findEnvReferences, resolveEnvReferences } from "../policy/mod.ts";

/** Options of {@linkcode referenceIssues} and {@linkcode resolveConfig}. */
export interface ReferenceOptions {
  /**
   * Why a variable without a value may not be read (for example the Deno flag that grants it), or
   * undefined when it may be read and is simply not set. @default every variable may be read
   */
  unreadable?: (variable: string) => string | undefined;
}

/** A config whose `${VAR}` references do not resolve to valid values; the message lists each issue. */
export class ConfigReferenceError extends Error {
  /** Each problem, by field. */
  readonly issues: readonly ConfigIssue[];

  /** The error of these issues. */
  constructor(issues: readonly ConfigIssue[]) {
    super(issues.map((issue) => `${issue.field}: ${issue.expected}`).join("; "));
    this.name = "ConfigReferenceError";
    this.issues = issues;
  }
}

/** Paths whose references the config does not resolve: the instructions text and the secret values. */
function skip(path: string): boolean {
  return path === "instructions" || path === "secrets.secrets";
}

/**
 * The issues of the config's `${VAR}` references with `env`: `triggers[1].hmac_secret: ${ORDERS_SECRET}
 * is not set` for a variable without a value, or the field's rule when the value it resolves to is
 * refused (`must be at least 16 characters (got 9)`). Values are never echoed. Empty when all resolve.
 */
export function referenceIssues(
  config: ProcessConfig,
  env: EnvLookup,
  options: ReferenceOptions = {},
): ConfigIssue[] {
  const outcome = resolved(config, env, options);
  return "issues" in outcome ? outcome.issues : [];
}

/**
 * The config with `${VAR}` references resolved (never in `instructions`, nor in `secrets.secrets`, whose
 * values only the process's SecretStore holds), validated again because a variable may hold a value a
 * field refuses.
 *
 * @throws {ConfigReferenceError} when a reference cannot be resolved or resolves to a refused value.
 */
export function resolveConfig(
  config: ProcessConfig,
  env: EnvLookup,
  options: ReferenceOptions = {},
): ProcessConfig {
  const outcome = resolved(config, env, options);
  if ("issues" in outcome) throw new ConfigReferenceError(outcome.issues);
  return outcome.config;
}

function resolved(
  config: ProcessConfig,
  env: EnvLookup,
  options: ReferenceOptions,
): { config: ProcessConfig } | { issues: ConfigIssue[] } {
  const references = findEnvReferences(config, { skip });
  if (references.length === 0) return { config };
  const issues: ConfigIssue[] = [];
  for (const { path, variable } of references) {
    if (env(variable) !== undefined) continue;
    const why = options.unreadable?.(variable);
    const expected = why === undefined
      ? `\${${variable}} is not set`
      : `\${${variable}} may not be read: ${why}`;
    const field = path === "" ? ROOT_FIELD : path;
    if (!issues.some((issue) => issue.field === field && issue.expected === expected)) {
      issues.push({ field, expected });
    }
  }
  if (issues.length > 0) return { issues };
  const parsed = parseProcessConfig(resolveEnvReferences(config, env, { skip }));
  return parsed.ok ? { config: parsed.config } : { issues: parsed.issues };
}
