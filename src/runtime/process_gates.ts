/**
 * Small helpers of AgentProcess: resolving the config at start and waiting until runs may happen.
 *
 * @module
 */

import { parseProcessConfig, type ProcessConfig } from "./config/mod.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { EnvLookup } from "./process_parts.ts";
import { findEnvReferences, resolveEnvReferences } from "./policy/mod.ts";

/**
 * The config with `${VAR}` references resolved (never in `instructions`), validated again because a
 * variable may hold a value a field refuses. Throws on an unresolvable reference or an invalid result.
 */
export function resolveConfig(config: ProcessConfig, env: EnvLookup): ProcessConfig {
  const skip = (path: string) => path === "instructions";
  if (findEnvReferences(config, { skip }).length === 0) return config;
  const parsed = parseProcessConfig(resolveEnvReferences(config, env, { skip }));
  if (parsed.ok) return parsed.config;
  const fields = parsed.issues.map((issue) => issue.field).join(", ");
  throw new Error(`after resolving references the config is not valid at: ${fields}`);
}

/**
 * Resolves when runs may happen: at once when running; an awaiting process is woken (`wake`); a
 * starting or suspended one is waited for. Rejects with the signal's reason when it aborts.
 */
export function whenRunnable(lifecycle: Lifecycle, wake: () => void, signal: AbortSignal): Promise<void> {
  if (lifecycle.state === "awaiting") wake();
  if (lifecycle.state === "running") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const abort = () => {
      off();
      reject(signal.reason);
    };
    const off = lifecycle.onTransition((t) => {
      if (t.to === "awaiting") wake();
      else if (t.to === "running") {
        off();
        signal.removeEventListener("abort", abort);
        resolve();
      }
    });
    signal.addEventListener("abort", abort, { once: true });
  });
}
