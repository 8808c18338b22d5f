/**
 * Control API settings and their resolution. Mistakes are refused when the API is built:
 * a `RangeError` for bad values and a `TypeError` for values of the wrong kind.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import { hostEnv } from "../_util/host_env.ts";
import { isLoopbackHost } from "../_util/net.ts";
import type { EnvLookup } from "../runtime/mod.ts";

/** The default bind host. */
export const DEFAULT_HOST = "127.0.0.1";
/** The default port. */
export const DEFAULT_PORT = 9100;

/** Control API settings (spec 000 "Server settings"). */
export interface ControlApiOptions {
  /** Bind address. @default "127.0.0.1" */
  host?: string;
  /** Port; 0 lets the OS choose (read it from the server after start). @default 9100 */
  port?: number;
  /** Bearer token for every route but `GET /api/v1/health`; `${VAR}` reads it from the environment. Required off loopback. */
  authToken?: string;
  /** Called (no arguments) after `POST /runtime/shutdown` answered 202; without it that route is 404. */
  onShutdown?: () => void | Promise<void>;
  /** Permit deploys that run programs on the host. @default false */
  allowCommandDeploys?: boolean;
  /** Permit `${VAR}` references to any host variable in deployed configs. @default false */
  allowEnvReferences?: boolean;
  /** Variables deployed configs may reference while `allowEnvReferences` is off. @default none */
  allowedEnvVars?: Iterable<string>;
  /** Directory that paths in deployed configs must lie in. @default the runtime's data dir */
  dataDir?: string;
  /** Environment lookup. @default the host environment */
  env?: EnvLookup;
  /** Parent logger; the API logs as `<parent>.api`. @default the runtime's logger */
  logger?: Logger;
  /**
   * Time to receive a request head (request line and headers) before 408 and closing the connection
   * ({@linkcode ControlServer}). @default 10000
   */
  headTimeoutMs?: number;
  /**
   * Answers requests before the API's guard (the web console's pages: `src/console`); `undefined` passes the
   * request on to the API. @default none
   */
  front?: (request: Request) => Response | undefined;
}

/** Settings with defaults filled and checked. */
export interface ResolvedControlApiOptions {
  /** Bind address. */
  host: string;
  /** Port (0: chosen by the OS). */
  port: number;
  /** The token after `${VAR}` resolution; undefined when none. */
  authToken: string | undefined;
  /** Shutdown callback; undefined means no shutdown route. */
  onShutdown: (() => void | Promise<void>) | undefined;
  /** Whether program-running deploys are permitted. */
  allowCommandDeploys: boolean;
  /** Whether any `${VAR}` reference is permitted. */
  allowEnvReferences: boolean;
  /** Variables references may name while `allowEnvReferences` is off. */
  allowedEnvVars: ReadonlySet<string>;
  /** Directory deployed paths must lie in; undefined means the runtime's. */
  dataDir: string | undefined;
  /** Environment lookup. */
  env: EnvLookup;
  /** Parent logger; undefined means the runtime's. */
  logger: Logger | undefined;
  /** Whether the bind host is a loopback name (Host and Origin checks apply). */
  loopback: boolean;
}

const REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Fills defaults and checks settings; throws `RangeError` or `TypeError` as spec 000 says. */
export function resolveControlApiOptions(options: ControlApiOptions = {}): ResolvedControlApiOptions {
  const env = options.env ?? hostEnv;
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError("port must be an integer from 0 to 65535");
  }
  if (options.onShutdown !== undefined && typeof options.onShutdown !== "function") {
    throw new TypeError("onShutdown must be a function");
  }
  const allowed = options.allowedEnvVars;
  if (typeof allowed === "string") {
    throw new TypeError("allowedEnvVars must be a collection of names, not a single string");
  }
  if (allowed !== undefined && typeof (allowed as Iterable<string>)[Symbol.iterator] !== "function") {
    throw new TypeError("allowedEnvVars must be iterable");
  }
  const allowedEnvVars = new Set<string>();
  for (const name of allowed ?? []) {
    if (typeof name !== "string") throw new TypeError("allowedEnvVars must hold strings");
    allowedEnvVars.add(name);
  }
  const authToken = resolveToken(options.authToken, env);
  const loopback = isLoopbackHost(host);
  if (authToken === undefined && !loopback) {
    throw new RangeError(`an auth token is required when binding to the non-loopback host ${host}`);
  }
  return {
    host,
    port,
    authToken,
    onShutdown: options.onShutdown,
    allowCommandDeploys: options.allowCommandDeploys ?? false,
    allowEnvReferences: options.allowEnvReferences ?? false,
    allowedEnvVars,
    dataDir: options.dataDir,
    env,
    logger: options.logger,
    loopback,
  };
}

function resolveToken(token: string | undefined, env: EnvLookup): string | undefined {
  if (token === undefined) return undefined;
  if (typeof token !== "string") throw new TypeError("authToken must be a string");
  if (token === "") throw new RangeError("authToken must not be empty");
  const reference = REFERENCE.exec(token);
  if (!reference) return token;
  const value = env(reference[1]);
  if (value === undefined) {
    throw new RangeError(`authToken names the unset environment variable ${reference[1]}`);
  }
  if (value === "") throw new RangeError(`authToken names the empty environment variable ${reference[1]}`);
  return value;
}

/**
 * The environment lookup of API-deployed processes: only variables the deploy policy allows resolve
 * (every variable with `allowEnvReferences`, otherwise only `allowedEnvVars`).
 */
export function apiEnvLookup(
  settings: Pick<ResolvedControlApiOptions, "allowEnvReferences" | "allowedEnvVars" | "env">,
): EnvLookup {
  return (name) =>
    settings.allowEnvReferences || settings.allowedEnvVars.has(name) ? settings.env(name) : undefined;
}
