/**
 * The generated launcher's command line: `main.ts [--transport stdio|http|sse] [--host H] [--port N]
 * [--public] [--help]`.
 *
 * @module
 */

import { hostEnv } from "../../_util/host_env.ts";
import { McpcastError } from "../errors.ts";
import type { EnvLookup } from "../types.ts";

/** What the launcher was asked to do. */
export interface LaunchOptions {
  /** Transport. @default "stdio" */
  transport: "stdio" | "http" | "sse";
  /** Address to bind (HTTP transports). @default "127.0.0.1" */
  host: string;
  /** Port to bind; 0 picks a free one. @default 8080 */
  port: number;
  /** Accept a non-loopback address for env-token and none servers (`--public` or `MCPCAST_PUBLIC=1`). */
  public: boolean;
  /** Host names accepted in the Host header besides loopback names (`--allowed-host`, repeatable). */
  allowedHosts: string[];
  /** `--help` was given. */
  help: boolean;
}

/** The launcher's usage text. */
export const LAUNCH_USAGE: string =
  `Usage: main.ts [--transport stdio|http|sse] [--host 127.0.0.1] [--port 8080]
               [--allowed-host NAME]... [--public]

  --transport     stdio (default), http (streamable HTTP at /mcp) or sse (/sse)
  --host          address to bind for http and sse (default 127.0.0.1)
  --port          port to bind (default 8080; 0 picks a free one)
  --allowed-host  a name clients reach the server by (Host header), besides loopback names and
                  a named --host; repeat for more (needed behind a proxy when binding 0.0.0.0)
  --public        let an env-token or none server bind an address that is not loopback
                  (only behind a gateway that authenticates callers; also MCPCAST_PUBLIC=1)
  --help          show this text`;

const TRANSPORTS = new Set(["stdio", "http", "sse"]);

/**
 * The launch options in `argv` (`--flag value` or `--flag=value`); `MCPCAST_PUBLIC=1` in `env` (the
 * process environment by default) sets `public`.
 *
 * @throws {McpcastError} for an unknown flag, a missing or invalid value.
 *
 * @example
 * ```ts
 * import { parseLaunchArgs } from "./launch_args.ts";
 * parseLaunchArgs(["--transport", "http", "--port=9000"], () => undefined);
 * // { transport: "http", host: "127.0.0.1", port: 9000, public: false, allowedHosts: [], help: false }
 * ```
 */
export function parseLaunchArgs(argv: readonly string[], env: EnvLookup = hostEnv): LaunchOptions {
  const options: LaunchOptions = {
    transport: "stdio",
    host: "127.0.0.1",
    port: 8080,
    public: env("MCPCAST_PUBLIC")?.trim() === "1",
    allowedHosts: [],
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = flag === arg ? undefined : arg.slice(eq + 1);
    const value = (): string => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === "") {
        throw new McpcastError(`${flag} needs a value\n\n${LAUNCH_USAGE}`);
      }
      return next;
    };
    if (flag === "--help" || flag === "-h") options.help = true;
    else if (flag === "--public") options.public = true;
    else if (flag === "--host") options.host = value();
    else if (flag === "--allowed-host") options.allowedHosts.push(value());
    else if (flag === "--transport") {
      const transport = value();
      if (!TRANSPORTS.has(transport)) throw new McpcastError(`--transport must be stdio, http or sse`);
      options.transport = transport as LaunchOptions["transport"];
    } else if (flag === "--port") {
      const text = value();
      const port = Number(text);
      if (!/^\d+$/.test(text) || port > 65535) {
        throw new McpcastError("--port must be a number from 0 to 65535");
      }
      options.port = port;
    } else {
      throw new McpcastError(`unknown argument '${arg.slice(0, 40)}'\n\n${LAUNCH_USAGE}`);
    }
  }
  return options;
}
