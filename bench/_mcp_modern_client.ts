/**
 * The 2026-07-28 side of the MCP benchmark's load: requests as a modern client sends them (no
 * `initialize`, no session; every request carries the `_meta` envelope with protocol version, client
 * info and client capabilities, and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers, as
 * SDK v2's client derives them from the body), a `server/discover` probe, one checked `tools/call`, and
 * the {@linkcode LoadTarget} that repeats `tools/call` on raw keep-alive connections.
 *
 * @module
 */

import type { LoadTarget } from "./_load.ts";
import { type McpClientOptions, rpcMessages } from "./_mcp_client.ts";

/** The revision the modern requests name. */
export const MODERN_VERSION = "2026-07-28";
const ACCEPT = "application/json, text/event-stream";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
  "io.modelcontextprotocol/clientInfo": { name: "agentry-mcp-bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A call to repeat: the tool, its arguments and the text its answer must echo. */
export interface EchoCall {
  /** Tool name. */
  tool: string;
  /** Tool arguments. */
  args: Record<string, unknown>;
  /** The text the answer's first content block must hold. */
  expected: string;
}

/**
 * The headers a modern client sends with `method` (`name`: the tool, prompt or resource it names),
 * besides `content-type` (the load client adds its own).
 */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = {
    accept: ACCEPT,
    "mcp-protocol-version": MODERN_VERSION,
    "mcp-method": method,
  };
  if (name !== undefined) headers["mcp-name"] = name;
  return headers;
}

/**
 * A body builder for `method` with `params` plus the envelope: the JSON after the id is built once, so
 * each request costs the generator one string concatenation, as the 2025 side's bodies nearly do.
 */
export function modernBody(method: string, params: Record<string, unknown>): (id: number) => string {
  const tail = JSON.stringify({ method, params: { ...params, _meta: META } }).slice(1);
  return (id) => `{"jsonrpc":"2.0","id":${id},${tail}`;
}

async function post(
  options: McpClientOptions,
  method: string,
  params: Record<string, unknown>,
  name?: string,
): Promise<{ status: number; contentType: string; messages: unknown[]; text: string }> {
  const answer = await fetch(new URL(options.path, options.baseUrl), {
    method: "POST",
    headers: { ...options.headers, ...modernHeaders(method, name), "content-type": "application/json" },
    body: modernBody(method, params)(1),
  });
  const text = await answer.text();
  const contentType = answer.headers.get("content-type") ?? "";
  const messages = answer.status === 200 && text !== "" ? rpcMessages(contentType, text) : [];
  return { status: answer.status, contentType, messages, text };
}

/** Sends `server/discover`; throws unless the server lists {@linkcode MODERN_VERSION}. */
export async function discover(options: McpClientOptions): Promise<string[]> {
  const answer = await post(options, "server/discover", {});
  const result = (answer.messages[0] as { result?: { supportedVersions?: unknown } } | undefined)?.result;
  const versions = result?.supportedVersions;
  if (!Array.isArray(versions) || !versions.includes(MODERN_VERSION)) {
    throw new Error(`server/discover: ${answer.status} ${answer.text.slice(0, 300)}`);
  }
  return versions;
}

/** One modern `tools/call`; throws unless the answer is a successful result whose text is `expected`. */
export async function checkedModernCall(
  options: McpClientOptions,
  call: EchoCall,
): Promise<{ contentType: string; bytes: number }> {
  const answer = await post(options, "tools/call", { name: call.tool, arguments: call.args }, call.tool);
  const message = answer.messages.at(-1) as
    | { result?: { isError?: boolean; content?: Array<{ type: string; text?: string }> } }
    | undefined;
  const text = message?.result?.content?.[0]?.text;
  if (answer.status !== 200 || message?.result?.isError || text !== call.expected) {
    throw new Error(
      `modern tools/call ${call.tool} did not echo: ${answer.status} ${answer.text.slice(0, 400)}`,
    );
  }
  return { contentType: answer.contentType, bytes: answer.text.length };
}

/** Load of modern `tools/call` POSTs (no session), each answer checked for `expected`. */
export function modernCallTarget(options: McpClientOptions, call: EchoCall): LoadTarget {
  const body = modernBody("tools/call", { name: call.tool, arguments: call.args });
  return {
    baseUrl: options.baseUrl,
    method: "POST",
    path: options.path,
    headers: { ...options.headers, ...modernHeaders("tools/call", call.tool) },
    body: (seq) => body(seq + 2),
    status: 200,
    bodyIncludes: `"text":${JSON.stringify(call.expected)}`,
  };
}
