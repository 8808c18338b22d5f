/**
 * The error `McpConnections.connect` rejects with when a server cannot be connected.
 *
 * @module
 */

import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError } from "@modelcontextprotocol/client";
import { ConnectTimeout } from "./_session.ts";
import { ListingFailed } from "./_link_parts.ts";

/**
 * A configured MCP server could not be connected (or its tools not listed). The message names the
 * server and the cause in our words; it never holds header or token values. The SDK's error is kept as
 * `cause`, for the log only.
 */
export class McpConnectError extends Error {
  /** The server's name (its key in `servers`). */
  readonly server: string;
  /** The hint an API answer carries (the reason is in our words, without header or token values). */
  readonly publicDetail: { field: string; expected: string };

  /** An error for `server`, `reason` in our words, `cause` the underlying error. */
  constructor(server: string, reason: string, options: { cause?: unknown } = {}) {
    super(`MCP server ${server} could not be connected: ${reason}`, { cause: options.cause });
    this.name = "McpConnectError";
    this.server = server;
    this.publicDetail = {
      field: `config.servers.${server}`,
      expected: `an MCP server that connects (${reason})`,
    };
  }
}

/** Our words for why a connect failed. */
export function connectFailureReason(error: unknown): string {
  if (error instanceof ListingFailed) {
    return `listing its tools failed (${connectFailureReason(error.cause)})`;
  }
  if (error instanceof ConnectTimeout) return error.message;
  if (error instanceof SdkHttpError) return `the server answered HTTP ${error.status}`;
  if (error instanceof SseError) {
    return typeof error.code === "number"
      ? `the server answered HTTP ${error.code}`
      : "the server could not be reached";
  }
  if (error instanceof ProtocolError) return `the server refused the MCP handshake (MCP error ${error.code})`;
  if (error instanceof SdkError) return sdkFailureReason(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "the command was not found";
  if (code === "EACCES") return "the command could not be run (permission denied)";
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return "the runtime lacks a permission it needs for this server";
  }
  if (error instanceof TypeError) return "the server could not be reached";
  return "the connection failed";
}

function sdkFailureReason(error: SdkError): string {
  switch (error.code) {
    case SdkErrorCode.ConnectionClosed:
      return "the connection closed before the MCP handshake finished";
    case SdkErrorCode.RequestTimeout:
      return "the server did not answer in time";
    case SdkErrorCode.EraNegotiationFailed:
      // A probe that could not be sent (the server is down) keeps the network error as its cause.
      if (error.cause instanceof TypeError) return "the server could not be reached";
      return "the protocol version could not be agreed";
    case SdkErrorCode.ClientHttpUnexpectedContent:
      return "the server's answer was not MCP";
    default:
      return "the MCP handshake failed";
  }
}
