/**
 * Resolving a process config at start: its `${VAR}` references replaced from the host environment.
 *
 * Not exported through `mod.ts`: it uses `../policy/mod.ts`, which imports `./mod.ts`.
 *
 * @module
 */

import { parseProcessConfig } from "./issues.ts";
import type { ProcessConfig } from "./process_config.ts";
import type { EnvLookup } from "../process_parts.ts";
import { findEnvReferences, resolveEnvReferences } from "../policy/mod.ts";

/**
 * The config with `${VAR}` references resolved (never in `instructions`, nor in `secrets.secrets`, whose
 * values only the process's SecretStore holds), validated again because a variable may hold a value a
 * field refuses. Throws on an unresolvable reference or an invalid result.
 */
export function resolveConfig(config: ProcessConfig, env: EnvLookup): ProcessConfig {
  const skip = (path: string) => path === "instructions" || path === "secrets.secrets";
  if (findEnvReferences(config, { skip }).length === 0) return config;
  const parsed = parseProcessConfig(resolveEnvReferences(config, env, { skip }));
  if (parsed.ok) return parsed.config;
  const fields = parsed.issues.map((issue) => issue.field).join(", ");
  throw new Error(`after resolving references the config is not valid at: ${fields}`);
}
