/**
 * Arguments of `agentry runtime start`.
 *
 * @module
 */

import { resolve } from "node:path";
import { LOG_LEVELS, type LogLevel } from "../log.ts";
import { isLoopbackHost } from "../_util/net.ts";
import { DEFAULT_HOST, DEFAULT_PORT } from "../api/mod.ts";
import { DEFAULT_DATA_DIR, MANIFEST_SUFFIXES } from "../runtime/mod.ts";
import { UsageError } from "./exit.ts";
import { parseFlags, parsePort } from "./parse_flags.ts";

/** Help text of `agentry runtime start`. */
export const RUNTIME_START_HELP = `Usage: agentry runtime start [options]

Serve the control API (/api/v1) and the web console (/console/) for a runtime of agent processes.

Options:
  --host HOST                 bind address (default ${DEFAULT_HOST})
  --port PORT                 port; 0 picks a free one and prints it (default ${DEFAULT_PORT})
  --token TOKEN               bearer token; \${VAR} reads a variable (default: $AGENTRY_API_TOKEN,
                              else a random token, printed once)
  --no-token                  serve without a token (loopback hosts only)
  --data-dir DIR              state directory (default ./${DEFAULT_DATA_DIR})
  --manifests DIR             deploy every ${
  MANIFEST_SUFFIXES.map((suffix) => `*${suffix}`).join(", ")
} file there at start
  --allow-command-deploys     let API deploys start programs (stdio MCP servers, command hooks)
  --allow-env-references      let API deploys reference any environment variable
  --allow-env-var NAME        let API deploys reference NAME (repeatable)
  --fsync                     fdatasync every acknowledged write before answering (survives a power
                              loss; without it writes survive a crash of the runtime, not of the machine)
  --head-timeout SECONDS      close connections whose request head takes longer (408): guards the API
                              against slow clients on a loopback host too (default: 10 on other hosts,
                              none on loopback, which is served by the faster Deno.serve)
  --no-console                do not serve the web console (/console/; / redirects there)
  --json                      print one JSON line {url, token} on stdout once listening
  --log-level LEVEL           debug, info, warning or error (default info)
  -h, --help                  show this help

A generated token is also written to <data-dir>/api_token: export TOKEN=$(cat .agentry/api_token)
`;

/** Parsed and checked options. */
export interface StartOptions {
  host: string;
  port: number;
  token: string | undefined;
  noToken: boolean;
  dataDir: string;
  manifests: string | undefined;
  allowCommandDeploys: boolean;
  allowEnvReferences: boolean;
  allowEnvVars: string[];
  /** Sync acknowledged writes to disk (`fdatasync`, group commit) before answering. */
  fsync: boolean;
  /** Request-head timeout in seconds; undefined: 10 s on a non-loopback host, none on loopback. */
  headTimeout: number | undefined;
  /** Do not serve the web console (`--no-console`). */
  noConsole: boolean;
  json: boolean;
  logLevel: LogLevel;
  help: boolean;
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses the arguments after `runtime start`; throws {@linkcode UsageError}. */
export function parseStartArgs(args: readonly string[]): StartOptions {
  const { values } = parseFlags(args, {
    flags: {
      host: { type: "string" },
      port: { type: "string" },
      token: { type: "string" },
      "no-token": { type: "boolean" },
      "data-dir": { type: "string" },
      manifests: { type: "string" },
      "allow-command-deploys": { type: "boolean" },
      "allow-env-references": { type: "boolean" },
      "allow-env-var": { type: "string", multiple: true },
      fsync: { type: "boolean" },
      "head-timeout": { type: "string" },
      "no-console": { type: "boolean" },
      json: { type: "boolean" },
      "log-level": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const host = values.host ?? DEFAULT_HOST;
  if (host === "") throw new UsageError("--host must not be empty");
  const port = parsePort(values.port, DEFAULT_PORT);
  const logLevel = (values["log-level"] ?? "info") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}`);
  }
  const allowEnvVars = values["allow-env-var"] ?? [];
  for (const name of allowEnvVars) {
    if (!VARIABLE.test(name)) {
      throw new UsageError(`--allow-env-var ${JSON.stringify(name)} is not a variable name`);
    }
  }
  const noToken = values["no-token"] ?? false;
  if (noToken && values.token !== undefined) {
    throw new UsageError("--token and --no-token exclude each other");
  }
  if (noToken && !isLoopbackHost(host)) throw new UsageError("--no-token is allowed only on a loopback host");
  if (values.token === "") throw new UsageError("--token must not be empty");
  const headTimeout = values["head-timeout"] === undefined ? undefined : Number(values["head-timeout"]);
  if (
    headTimeout !== undefined && !(Number.isInteger(headTimeout) && headTimeout >= 1 && headTimeout <= 3600)
  ) {
    throw new UsageError("--head-timeout must be a whole number of seconds from 1 to 3600");
  }
  return {
    host,
    port,
    token: values.token,
    noToken,
    dataDir: resolve(values["data-dir"] ?? DEFAULT_DATA_DIR),
    manifests: values.manifests === undefined ? undefined : resolve(values.manifests),
    allowCommandDeploys: values["allow-command-deploys"] ?? false,
    allowEnvReferences: values["allow-env-references"] ?? false,
    allowEnvVars,
    fsync: values.fsync ?? false,
    headTimeout,
    noConsole: values["no-console"] ?? false,
    json: values.json ?? false,
    logLevel,
    help: values.help ?? false,
  };
}
