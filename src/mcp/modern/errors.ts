/**
 * JSON-RPC errors from `requests.ts` (SDK v1 `McpError`s: a numeric `code`, a `message` and optional
 * `data`) as SDK v2 `ProtocolError`s, so a 2026-07-28 client sees the same code, message and data as
 * a 2025-era session (e.g. "Resource not found" with `data.uri`, SEP-2164). The message loses the
 * `MCP error <code>: ` prefix SDK v1 adds to it (v2 clients add their own). The SDK's 2026-07-28 codec
 * then writes the code as that revision spells it (resource not found is -32602 there).
 *
 * @module
 */

import { ProtocolError } from "@modelcontextprotocol/server";

const V1_PREFIX = /^MCP error -?\d+: /;

/** `error` as a `ProtocolError` when it carries a JSON-RPC code; anything else unchanged. */
export function toProtocolError(error: unknown): unknown {
  if (error instanceof ProtocolError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "number" || !Number.isSafeInteger(code)) return error;
  const data = (error as { data?: unknown }).data;
  return new ProtocolError(code, error.message.replace(V1_PREFIX, ""), data);
}
