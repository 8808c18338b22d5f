/**
 * Arguments of `agentry serve`.
 *
 * @module
 */

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "./exit.ts";
import { parseFlags, parsePort } from "./parse_flags.ts";

/** Help text of `agentry serve`. */
export const SERVE_HELP = `Usage: agentry serve FILE [options]

Serve the MCP tool server built by FILE (a .ts or .js module, relative to the current directory).
Its default export is a ToolServer, or a function (sync or async) that returns one:

  export default function buildServer(): ToolServer { ... }

createToolServer reads the AGENTRY_SERVER_NAME, AGENTRY_LOG_LEVEL and AGENTRY_TIMEOUT_DEFAULT
settings (when the process may read them); the CLI refuses to start when one holds a bad value.
Diagnostics go to stderr; with stdio, stdout carries only protocol messages.

Options:
  --transport KIND        stdio, http (streamable HTTP at /mcp) or sse (legacy SSE at /sse)
                          (default stdio)
  --host HOST             bind address for http/sse (default 127.0.0.1)
  --port PORT             port for http/sse; 0 picks a free one (default 8080)
  --allowed-host NAME     also accept this Host header (name or name:port; repeatable; http/sse)
  --allowed-origin ORIGIN also accept this Origin header (repeatable; http/sse)
  --stateless             streamable HTTP without sessions (http only)
  --reload                restart the server when a .ts/.js/.json file under FILE's directory changes
                          (polled every second; the server runs in a child process)
  -h, --help              show this help

With http or sse, one line "agentry serve: listening on URL" is printed on stderr once bound.
SIGINT or SIGTERM stops the server gracefully (exit 0).
`;

/** The transports `agentry serve` offers. */
export type ServeTransport = "stdio" | "http" | "sse";

/** Parsed and checked options of `agentry serve`. */
export interface ServeOptions {
  /** FILE as given. */
  file: string;
  /** FILE resolved against the current directory (a `file:` URL is accepted too). */
  path: string;
  /** `--transport`. */
  transport: ServeTransport;
  /** `--host` (http/sse). */
  host: string;
  /** `--port` (http/sse); 0 picks a free port. */
  port: number;
  /** `--allowed-host` values. */
  allowedHosts: string[];
  /** `--allowed-origin` values. */
  allowedOrigins: string[];
  /** `--stateless` (http). */
  stateless: boolean;
  /** `--reload`. */
  reload: boolean;
  /** `--help`. */
  help: boolean;
}

const TRANSPORTS: readonly ServeTransport[] = ["stdio", "http", "sse"];

/** Parses the arguments after `serve`; throws {@linkcode UsageError}. */
export function parseServeArgs(args: readonly string[]): ServeOptions {
  const { values, positionals } = parseFlags(args, {
    positionals: true,
    flags: {
      transport: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      "allowed-host": { type: "string", multiple: true },
      "allowed-origin": { type: "string", multiple: true },
      stateless: { type: "boolean" },
      reload: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const help = values.help ?? false;
  if (!help && positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? "serve needs a FILE" : "serve takes one FILE");
  }
  const file = positionals[0] ?? "";
  const transport = (values.transport ?? "stdio") as ServeTransport;
  if (!TRANSPORTS.includes(transport)) throw new UsageError("--transport must be stdio, http or sse");
  const host = values.host ?? "127.0.0.1";
  if (host === "") throw new UsageError("--host must not be empty");
  const port = parsePort(values.port, 8080);
  const allowedHosts = values["allowed-host"] ?? [];
  const allowedOrigins = values["allowed-origin"] ?? [];
  if (allowedHosts.some((name) => name === "")) throw new UsageError("--allowed-host must not be empty");
  for (const origin of allowedOrigins) {
    if (!URL.canParse(origin)) {
      throw new UsageError(`--allowed-origin ${JSON.stringify(origin)} is not a URL`);
    }
  }
  if (transport === "stdio") {
    const socketOnly = ["host", "port", "allowed-host", "allowed-origin"] as const;
    const given = socketOnly.find((name) => values[name] !== undefined);
    if (given) throw new UsageError(`--${given} needs --transport http or sse`);
  }
  if (values.stateless && transport !== "http") throw new UsageError("--stateless needs --transport http");
  return {
    file,
    path: file === "" ? "" : file.startsWith("file:") ? fileURLToPath(file) : resolve(file),
    transport,
    host,
    port,
    allowedHosts,
    allowedOrigins,
    stateless: values.stateless ?? false,
    reload: values.reload ?? false,
    help,
  };
}

/** The `serve` arguments that reproduce `options` without `--reload` (FILE made absolute). */
export function serveArgsWithoutReload(options: ServeOptions): string[] {
  const args = ["serve", options.path, "--transport", options.transport];
  if (options.transport !== "stdio") args.push("--host", options.host, "--port", String(options.port));
  for (const name of options.allowedHosts) args.push("--allowed-host", name);
  for (const origin of options.allowedOrigins) args.push("--allowed-origin", origin);
  if (options.stateless) args.push("--stateless");
  return args;
}
