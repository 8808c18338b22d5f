/**
 * ServerConfig: the `servers` config section, the MCP servers a process connects to, by name. An entry
 * either names a URL (an HTTP server) or a command (a program the runtime starts, spoken to over stdio).
 *
 * @module
 */

import { z } from "zod";
import { httpUrl, list, nonEmptyString, oneOf, pattern, strictObject, string, stringMap } from "./_fields.ts";
import { exactly, narrowedTo } from "../../_util/schema_proof.ts";

/** A transport over HTTP: Streamable HTTP (the current MCP transport), plain HTTP, or server-sent events. */
export type HttpTransport = "streamable-http" | "http" | "sse";

/** An MCP transport name. */
export type ServerTransport = HttpTransport | "stdio";

/** An MCP server reached over HTTP. Written and resolved alike. */
export interface HttpServerConfig {
  /** http(s) URL of the server. May hold `${VAR}` references, resolved at start. */
  url: string;
  /** Transport; "streamable-http" when neither this nor `type` is given. */
  transport?: HttpTransport;
  /** Alias of `transport`; when both are given they must be equal. */
  type?: HttpTransport;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /** Token sent as `Authorization: Bearer <token>`. Usually a `${VAR}` reference. */
  bearer_token?: string;
  /** Key sent as the `x-api-key` header. Usually a `${VAR}` reference. */
  api_key?: string;
  /**
   * MCP revision to speak. "auto": ask for 2026-07-28 (`server/discover`) and fall back to a 2025
   * `initialize` session when the server does not offer it. "2026-07-28": that revision only (connect
   * fails otherwise). "2025-11-25": an `initialize` session at once, without the probe (the server may
   * answer an older 2025 revision); the sse transport always speaks it.
   * @default "auto"
   */
  protocol_version?: ServerProtocolVersion;
  /** Not allowed: a server has either `url` or `command`. */
  command?: undefined;
}

/**
 * An MCP server the runtime starts as a program and speaks to over stdio. Written and resolved alike.
 * API deploys need `--allow-command-deploys` for such servers.
 */
export interface CommandServerConfig {
  /** Program to start: a non-empty command name or path. */
  command: string;
  /** Transport; always "stdio" for a command (the default). */
  transport?: "stdio";
  /** Alias of `transport`. */
  type?: "stdio";
  /** Program arguments. */
  args?: string[];
  /** Environment variables added to the inherited ones. */
  env?: Record<string, string>;
  /** Working directory of the program. */
  cwd?: string;
  /**
   * MCP revision to speak. "auto": ask for 2026-07-28 (`server/discover`) and fall back to a 2025
   * `initialize` session when the server does not offer it. "2026-07-28": that revision only (connect
   * fails otherwise). "2025-11-25": an `initialize` session at once, without the probe (the server may
   * answer an older 2025 revision). "auto" starts the program once more, briefly, for the probe.
   * @default "auto"
   */
  protocol_version?: ServerProtocolVersion;
  /** Not allowed: a server has either `url` or `command`. */
  url?: undefined;
}

/** The MCP revisions a server entry may ask for (`protocol_version`). */
export type ServerProtocolVersion = "auto" | "2026-07-28" | "2025-11-25";

/** Values of `protocol_version`. */
export const SERVER_PROTOCOL_VERSIONS = [
  "auto",
  "2026-07-28",
  "2025-11-25",
] as const satisfies readonly ServerProtocolVersion[];

/** One entry of `servers`: an HTTP server or a command server (tell them apart by `url`). */
export type ServerConfig = HttpServerConfig | CommandServerConfig;

/** One entry of `servers` as written: the same shape as {@linkcode ServerConfig} (nothing is defaulted). */
export type ServerConfigInput = ServerConfig;

/** MCP transports. */
export const SERVER_TRANSPORTS = [
  "streamable-http",
  "http",
  "sse",
  "stdio",
] as const satisfies readonly ServerTransport[];

/** Rule for server names (keys of `servers`). */
export const SERVER_NAME_PATTERN: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

const URL_ONLY = ["headers", "bearer_token", "api_key"] as const;
const COMMAND_ONLY = ["args", "env", "cwd"] as const;

/** One MCP server: exactly one of `url` or `command`; `type` is an alias of `transport`. */
export const ServerConfigSchema: z.ZodType<ServerConfig, ServerConfig> = narrowedTo(
  strictObject({
    url: httpUrl().optional(),
    transport: oneOf(SERVER_TRANSPORTS).optional(),
    type: oneOf(SERVER_TRANSPORTS).optional(),
    headers: stringMap("an object mapping header names to strings").optional(),
    bearer_token: string().optional(),
    api_key: string().optional(),
    command: nonEmptyString("a non-empty command").optional(),
    args: list(string(), "a list of strings").optional(),
    env: stringMap().optional(),
    cwd: nonEmptyString("a directory path").optional(),
    protocol_version: oneOf(SERVER_PROTOCOL_VERSIONS).optional(),
  }).superRefine((server, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (server.url !== undefined && server.command !== undefined) {
      issue("command", "no such field when url is set (a server has exactly one of url or command)");
      return;
    }
    if (server.url === undefined && server.command === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "a server object with exactly one of url or command (neither was given)",
      });
      return;
    }
    if (server.transport !== undefined && server.type !== undefined && server.transport !== server.type) {
      issue("type", "the same value as transport (type is an alias of transport)");
    }
    const transport = server.transport ?? server.type;
    if (transport === "stdio" && server.command === undefined) {
      issue("command", "a non-empty command (required for the stdio transport)");
    }
    if (transport !== undefined && transport !== "stdio" && server.url === undefined) {
      issue("url", `an http(s) URL (required for the ${transport} transport)`);
    }
    if (transport === "sse" && server.protocol_version === "2026-07-28") {
      issue("protocol_version", '"auto" or "2025-11-25" (the sse transport speaks only 2025-era revisions)');
    }
    const foreign = server.url !== undefined ? COMMAND_ONLY : URL_ONLY;
    for (const field of foreign) {
      if (server[field] !== undefined) {
        issue(field, `no such field for a ${server.url !== undefined ? "url" : "command"} server`);
      }
    }
  }),
);

/** The `servers` map: server name to server entry. */
export const ServersConfigSchema: z.ZodType<Record<string, ServerConfig>, Record<string, ServerConfig>> =
  exactly(z.record(
    pattern(SERVER_NAME_PATTERN, "a server name of 1 to 64 letters, digits, _ or -"),
    ServerConfigSchema,
    { error: "an object mapping server names to server objects" },
  ));

/** The fields that tell how a server entry is reached. */
export interface ServerKindFields {
  /** Program to start, for a command server. */
  command?: string;
  /** Transport as written. */
  transport?: ServerTransport;
  /** Alias of `transport`. */
  type?: ServerTransport;
}

/** True when the server entry starts a program on the host (`command`, or transport/type stdio). */
export function isProgramServer(server: ServerKindFields): boolean {
  return server.command !== undefined || server.transport === "stdio" || server.type === "stdio";
}

/**
 * The transport a server entry uses: `transport`, else `type`, else stdio for a command and
 * streamable-http for a URL.
 */
export function serverTransport(server: ServerKindFields): ServerTransport {
  return server.transport ?? server.type ?? (server.command !== undefined ? "stdio" : "streamable-http");
}
