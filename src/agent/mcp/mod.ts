/**
 * MCP servers for agent runs: {@linkcode McpConnections} connects a process's `servers` with the MCP
 * SDK client, offers their tools to the model and calls them for the tool loop.
 *
 * **Transports.** `streamable-http` / `http` use streamable HTTP; when its first request is answered
 * 404 or 405 (a server from before streamable HTTP), the same URL is tried with the SSE transport.
 * `sse` uses SSE. A `command` server is started with its `args`, `cwd` and `env` (added over the SDK's
 * small inherited set: `HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`) and spoken to over stdio; its
 * stderr goes to the logger at debug level (ignored when debug is off), never to our stderr.
 * HTTP servers get `headers`, `bearer_token` as `Authorization: Bearer <token>` and `api_key` as
 * `x-api-key` on every request. Every HTTP connection goes through its own HTTP client whose streams are
 * cancelled on close (under Deno the SDK's GET stream otherwise outlives `close()`), so closing leaves
 * no connection behind.
 *
 * **Revisions.** The client is the MCP SDK v2 one. Each server entry's `protocol_version` (default
 * `auto`) decides: `auto` asks `server/discover` first and speaks 2026-07-28 (stateless) to a server that
 * offers it, else opens a 2025 `initialize` session; `2025-11-25` opens the session at once; `2026-07-28`
 * accepts nothing else. `sse` is 2025 only. The revision negotiated is in {@linkcode McpServerStatus}
 * (`protocol_version`) and the `MCP server connected` log line. The client declares no capabilities
 * (no elicitation, sampling or roots): servers refuse what needs them, and the model reads why.
 *
 * **Tool names.** Tools are offered as `<server>__<tool>`, always prefixed, so a tool keeps its name
 * when another server adds one with the same name. Characters outside `[a-zA-Z0-9_-]` become `_`;
 * names over 64 characters keep 55 and get `_` plus an 8-hex-digit hash of the server and tool names.
 * Names that still clash are told apart deterministically ({@linkcode assignToolNames}).
 *
 * **Results** ({@linkcode toolOutcome}): text blocks joined by newlines; `structuredContent` as JSON
 * when no block has text; images and audio as `[image image/png, 1234 bytes]`; embedded resources by
 * their text (or a placeholder); cut at {@linkcode MAX_TOOL_OUTPUT_CHARS} (20,000) characters.
 *
 * **Failures.** Calls never reject for tool or server failures; they resolve `{ isError: true,
 * content }` with a short explanation (unknown tool, `server <name> is reconnecting`, a timeout, a
 * protocol error) or the tool's own error text. A server that drops (its transport closes, or errs and
 * then fails a ping) is reconnected with doubling backoff; its tools stay listed and answer
 * `server <name> is reconnecting` meanwhile, and are listed again once it is back.
 * `notifications/tools/list_changed` re-lists that server's tools, then calls `onToolsChanged`.
 *
 * @example
 * ```ts
 * import { Logger } from "../../log.ts";
 * import { McpConnections } from "./mod.ts";
 *
 * const mcp = await McpConnections.connect(
 *   { weather: { url: "http://127.0.0.1:8080/mcp", bearer_token: "t0ken" } },
 *   { logger: new Logger("agentry.mcp") },
 * );
 * try {
 *   const [tool] = mcp.tools(); // { name: "weather__forecast", ... }
 *   const outcome = await mcp.call(tool.name, { city: "Oslo" }); // { content: "Sunny", isError: false }
 * } finally {
 *   await mcp.close();
 * }
 * ```
 *
 * @module
 */

export {
  type AgentTool,
  type McpCallOptions,
  McpConnections,
  type McpConnectionsOptions,
  type McpServerStatus,
} from "./mcp_connections.ts";
export { McpConnectError } from "./mcp_connect_error.ts";
export { assignToolNames, MAX_TOOL_NAME_LENGTH, type ServerToolRef, toolName } from "./tool_names.ts";
export {
  MAX_TOOL_OUTPUT_CHARS,
  resultText,
  type ToolOutcome,
  toolOutcome,
  truncateText,
} from "./tool_outcome.ts";
