/**
 * Test helpers for the 2026-07-28 leg: a request as a modern client sends it (the `_meta` envelope
 * and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers) and reading its JSON answer.
 *
 * @module
 */

import { mcpPost } from "../transports/_test_serve.ts";

/** The revision the modern leg serves. */
export const MODERN = "2026-07-28";

/** Options for {@linkcode modernPost}. */
export interface ModernPostOptions {
  /** Headers added to (or replacing) the standard ones; `null` removes one. */
  headers?: Record<string, string | null>;
  /** Client capabilities declared in the envelope. @default {} */
  capabilities?: Record<string, unknown>;
  /** Extra `_meta` entries. */
  meta?: Record<string, unknown>;
}

let nextId = 1;

/** A 2026-07-28 request for `method` with `params`, as a conforming client sends it. */
export function modernPost(
  method: string,
  params: Record<string, unknown> = {},
  options: ModernPostOptions = {},
): Request {
  const name = method === "resources/read" ? params.uri : params.name;
  const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": method };
  if (typeof name === "string") headers["mcp-name"] = name;
  for (const [key, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[key];
    else headers[key] = value;
  }
  const body = {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": { name: "test", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? {},
        ...options.meta,
      },
    },
  };
  return mcpPost(body, headers);
}

/** A JSON-RPC answer: its result or error. */
export interface RpcAnswer {
  /** HTTP status. */
  status: number;
  /** The result, on success. */
  result?: Record<string, unknown>;
  /** The error, on failure. */
  error?: { code: number; message: string; data?: unknown };
}

/** The JSON-RPC answer in `response` (a JSON body, or the last message of an SSE stream). */
export async function answerOf(response: Response): Promise<RpcAnswer> {
  const text = await response.text();
  const isSse = response.headers.get("content-type")?.includes("text/event-stream");
  const payloads = isSse
    ? text.split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim())
    : [text];
  const messages = payloads.filter((p) => p !== "").map((p) => JSON.parse(p) as Record<string, unknown>);
  const answer = messages.findLast((m) => "result" in m || "error" in m) ?? {};
  return { status: response.status, ...answer } as RpcAnswer;
}
