/**
 * Types of the `servers` config section: the MCP servers a process connects to, by name. An entry either
 * names a URL (an HTTP server) or a command (a program the runtime starts, spoken to over stdio).
 *
 * @module
 */

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
  /** Not allowed: a server has either `url` or `command`. */
  url?: undefined;
}

/** One entry of `servers`: an HTTP server or a command server (tell them apart by `url`). */
export type ServerConfig = HttpServerConfig | CommandServerConfig;

/** One entry of `servers` as written: the same shape as {@linkcode ServerConfig} (nothing is defaulted). */
export type ServerConfigInput = ServerConfig;
