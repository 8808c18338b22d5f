/**
 * The config a deploy is given, as the control API takes it: parsed with the same schema (defaults
 * filled; an already parsed config parses to itself), checked by the runtime's `checkConfig`, and its
 * `${VAR}` references resolved once with the process's environment. Any issue is a
 * {@linkcode RuntimeError} INVALID_CONFIG naming each field and rule.
 *
 * @module
 */

import { hostEnv, hostEnvUnreadable } from "../_util/host_env.ts";
import {
  type ConfigIssue,
  parseProcessConfig,
  parseSection,
  type ProcessConfig,
  type ProcessConfigField,
} from "./config/mod.ts";
import { referenceIssues } from "./config/resolve_config.ts";
import { RuntimeError } from "./errors.ts";
import type { EnvLookup } from "./process_parts.ts";

/** Options of {@linkcode deployConfig}. */
export interface DeployConfigOptions {
  /** The process's environment. */
  env: EnvLookup;
  /** Checks beyond the schema; skipped with `restored`. */
  checkConfig: (config: ProcessConfig) => ConfigIssue[];
  /** A stored deployment coming back: its references resolve (or fail) at its start, as before. */
  restored: boolean;
}

/** The parsed config, or a RuntimeError INVALID_CONFIG. */
export function deployConfig(name: string, input: unknown, options: DeployConfigOptions): ProcessConfig {
  const config = parsedConfig(name, input);
  if (options.restored) return config;
  const issues = options.checkConfig(config);
  if (issues.length === 0) {
    const unreadable = options.env === hostEnv ? hostEnvUnreadable : undefined;
    issues.push(...referenceIssues(config, options.env, { unreadable }));
  }
  if (issues.length > 0) throw invalidConfig(name, issues);
  return config;
}

/** A whole config parsed as a deploy's (no references resolved), or a RuntimeError INVALID_CONFIG. */
export function parsedConfig(name: string, input: unknown): ProcessConfig {
  const parsed = parseProcessConfig(input);
  if (!parsed.ok) throw invalidConfig(name, parsed.issues);
  return parsed.config;
}

/** One top-level field parsed (issues under its name, e.g. `budget.max_runs_per_day`), or INVALID_CONFIG. */
export function parsedSection<K extends ProcessConfigField>(
  name: string,
  key: K,
  input: unknown,
): ProcessConfig[K] {
  const parsed = parseSection(key, input);
  if (!parsed.ok) throw invalidConfig(name, parsed.issues);
  return parsed.config;
}

/** RuntimeError INVALID_CONFIG: `process NAME: invalid config: field: rule; field: rule`. */
export function invalidConfig(name: string, issues: readonly ConfigIssue[]): RuntimeError<"INVALID_CONFIG"> {
  const list = issues.map((issue) => `${issue.field}: ${issue.expected}`).join("; ");
  return new RuntimeError("INVALID_CONFIG", `process ${name}: invalid config: ${list}`, {
    details: { process: name, issues },
  });
}
