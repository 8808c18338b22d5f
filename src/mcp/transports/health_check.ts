/**
 * Liveness and readiness for tool servers: named checks, some of them required for readiness. The HTTP
 * transports serve them at `GET /health` and `GET /health/ready`.
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";

/** A check: `true` when healthy. Throwing or returning anything but `true` counts as unhealthy. */
export type HealthCheckFn = () => boolean | Promise<boolean>;

/** Options for {@linkcode HealthCheck.addCheck}. */
export interface AddCheckOptions {
  /** Whether a failure of this check makes the server not ready. @default true */
  requiredForReady?: boolean;
}

const ADD_CHECK_KEYS = { requiredForReady: true } satisfies Record<keyof AddCheckOptions, true>;

/** Options for {@linkcode HealthCheck.readiness}. */
export interface ReadinessOptions {
  /** Include the message of checks that threw (never do this on an unauthenticated route). @default false */
  includeErrors?: boolean;
}

/** The state of one check. */
export interface CheckStatus {
  /** Whether the check returned `true`. */
  healthy: boolean;
  /** The thrown error's message, only with `includeErrors`. */
  error?: string;
}

/** The liveness answer. */
export interface Liveness {
  /** Always `"alive"`. */
  status: "alive";
  /** Seconds since the health check was created, to the hundredth. */
  uptime_seconds: number;
}

/** The readiness answer. */
export interface Readiness {
  /** `"not_ready"` when a required check is unhealthy. */
  status: "ready" | "not_ready";
  /** Every check by name. */
  checks: Record<string, CheckStatus>;
}

interface Entry {
  fn: HealthCheckFn;
  required: boolean;
}

/**
 * Named health checks.
 *
 * @example
 * ```ts
 * import { HealthCheck } from "@agentry/agentry/mcp";
 * const health = new HealthCheck()
 *   .addCheck("database", () => true)
 *   .addCheck("cache", () => false, { requiredForReady: false });
 * const ready = await health.readiness(); // { status: "ready", checks: { database: ..., cache: ... } }
 * ```
 */
export class HealthCheck {
  #checks = new Map<string, Entry>();
  #started = Date.now();

  /** Adds a check; a TypeError for a duplicate or empty name, a non-function or an unknown option. */
  addCheck(name: string, fn: HealthCheckFn, options: AddCheckOptions = {}): this {
    checkOptionKeys(options, { owner: "addCheck", keys: ADD_CHECK_KEYS });
    if (typeof name !== "string" || name === "") {
      throw new TypeError("addCheck: name must be a non-empty string");
    }
    if (typeof fn !== "function") throw new TypeError("addCheck: check must be a function");
    if (this.#checks.has(name)) throw new TypeError(`addCheck: check '${name}' is already registered`);
    this.#checks.set(name, { fn, required: options.requiredForReady ?? true });
    return this;
  }

  /** Names of the registered checks, in registration order. */
  get names(): string[] {
    return [...this.#checks.keys()];
  }

  /** Always alive while the process answers. */
  liveness(): Liveness {
    return { status: "alive", uptime_seconds: Math.round((Date.now() - this.#started) / 10) / 100 };
  }

  /** Runs every check concurrently; not ready when a required one is unhealthy. */
  async readiness(options: ReadinessOptions = {}): Promise<Readiness> {
    const entries = [...this.#checks];
    const results = await Promise.all(entries.map(async ([, entry]): Promise<CheckStatus> => {
      try {
        return { healthy: (await entry.fn()) === true };
      } catch (error) {
        const status: CheckStatus = { healthy: false };
        if (options.includeErrors) status.error = error instanceof Error ? error.message : String(error);
        return status;
      }
    }));
    const checks: Record<string, CheckStatus> = {};
    let ready = true;
    entries.forEach(([name, entry], index) => {
      checks[name] = results[index];
      if (entry.required && !results[index].healthy) ready = false;
    });
    return { status: ready ? "ready" : "not_ready", checks };
  }
}
