/**
 * The MCP side of the MCP benchmark's load: the `initialize` + `notifications/initialized` handshake over
 * streamable HTTP (with `fetch`), one checked `tools/call`, and the {@linkcode LoadTarget} that repeats
 * `tools/call` on raw keep-alive connections, one session per connection.
 *
 * @module
 */

import type { LoadTarget } from "./_load.ts";

/** What every MCP request carries besides the session id. */
export interface McpClientOptions {
  /** Base URL of the server, e.g. `http://127.0.0.1:1234`. */
  baseUrl: string;
  /** Path of the streamable HTTP endpoint. */
  path: string;
  /** Extra headers on every request (e.g. `x-api-key`). */
  headers: Record<string, string>;
}

/** An open MCP session. */
export interface McpSession {
  /** The `mcp-session-id` the server assigned. */
  id: string;
  /** The protocol version the server agreed to. */
  protocolVersion: string;
}

/** The protocol version the client asks for. */
export const PROTOCOL_VERSION = "2025-11-25";
const ACCEPT = "application/json, text/event-stream";

/**
 * The JSON-RPC messages of an answer: the body itself, or every non-empty `data:` line of an SSE stream
 * (a resumable stream starts with a priming event whose data is empty).
 */
export function rpcMessages(contentType: string, text: string): unknown[] {
  if (!contentType.includes("text/event-stream")) return [JSON.parse(text)].flat();
  return text.split(/\r?\n/).filter((line) => line.startsWith("data:") && line.slice(5).trim() !== "")
    .map((line) => JSON.parse(line.slice(5).trim()));
}

async function post(
  options: McpClientOptions,
  body: unknown,
  session?: McpSession,
): Promise<{ status: number; headers: Headers; messages: unknown[]; text: string }> {
  const headers: Record<string, string> = {
    ...options.headers,
    accept: ACCEPT,
    "content-type": "application/json",
  };
  if (session) {
    headers["mcp-session-id"] = session.id;
    headers["mcp-protocol-version"] = session.protocolVersion;
  }
  const answer = await fetch(new URL(options.path, options.baseUrl), {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  const type = answer.headers.get("content-type") ?? "";
  const messages = answer.status === 200 && text !== "" ? rpcMessages(type, text) : [];
  return { status: answer.status, headers: answer.headers, messages, text };
}

/** Runs the handshake and answers the session; throws with the server's answer when it fails. */
export async function openSession(options: McpClientOptions): Promise<McpSession> {
  const init = await post(options, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "agentry-mcp-bench", version: "1.0.0" },
    },
  });
  const id = init.headers.get("mcp-session-id");
  const result = (init.messages[0] as { result?: { protocolVersion?: string } } | undefined)?.result;
  if (init.status !== 200 || id === null || typeof result?.protocolVersion !== "string") {
    throw new Error(`initialize failed: ${init.status} ${init.text.slice(0, 300)}`);
  }
  const session = { id, protocolVersion: result.protocolVersion };
  const done = await post(options, { jsonrpc: "2.0", method: "notifications/initialized" }, session);
  if (done.status !== 202) {
    throw new Error(`notifications/initialized: ${done.status} ${done.text.slice(0, 300)}`);
  }
  return session;
}

/** The `tools/call` request body for `tool` with `args`. */
export function callBody(id: number, tool: string, args: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: tool, arguments: args },
  });
}

/** One `tools/call`; throws unless the answer is a successful result whose text is `expected`. */
export async function checkedCall(
  options: McpClientOptions,
  session: McpSession,
  call: { tool: string; args: Record<string, unknown>; expected: string },
): Promise<{ contentType: string; bytes: number }> {
  const answer = await post(options, JSON.parse(callBody(1, call.tool, call.args)), session);
  const message = answer.messages[0] as
    | { result?: { isError?: boolean; content?: Array<{ type: string; text?: string }> } }
    | undefined;
  const text = message?.result?.content?.[0]?.text;
  if (answer.status !== 200 || message?.result?.isError || text !== call.expected) {
    throw new Error(`tools/call ${call.tool} did not echo: ${answer.status} ${answer.text.slice(0, 400)}`);
  }
  return { contentType: answer.headers.get("content-type") ?? "", bytes: answer.text.length };
}

/** Load of `tools/call` POSTs, connection `i` on `sessions[i % length]`, each answer checked for `expected`. */
export function callTarget(
  options: McpClientOptions,
  sessions: readonly McpSession[],
  call: { tool: string; args: Record<string, unknown>; expected: string },
): LoadTarget {
  return {
    baseUrl: options.baseUrl,
    method: "POST",
    path: options.path,
    headers: { ...options.headers, accept: ACCEPT },
    connectionHeaders: sessions.map((s) => ({
      "mcp-session-id": s.id,
      "mcp-protocol-version": s.protocolVersion,
    })),
    body: (seq) => callBody(seq + 2, call.tool, call.args),
    status: 200,
    bodyIncludes: `"text":${JSON.stringify(call.expected)}`,
  };
}
