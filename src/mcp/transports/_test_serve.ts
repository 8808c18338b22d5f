/**
 * Test helpers: serving a fetch handler on 127.0.0.1, raw HTTP over TCP (for Host headers fetch would
 * rewrite), and MCP request builders.
 *
 * @module
 */

import { z } from "zod";
import { createToolServer, type ToolServer, type ToolServerOptions } from "../tool_server.ts";
import type { McpFetchHandler, ServeInfo } from "./to_fetch_handler.ts";

/** A handler bound to a socket. */
export interface Served extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  /** The bound port. */
  port: number;
}

/** Serves `handler` on 127.0.0.1; disposing closes its sessions and the socket. */
export async function serveOnLoopback(handler: McpFetchHandler): Promise<Served> {
  const listening = Promise.withResolvers<number>();
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: (a) => listening.resolve(a.port) },
    (request, info) => handler(request, { remoteAddr: info.remoteAddr }),
  );
  const port = await listening.promise;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    async [Symbol.asyncDispose]() {
      await handler.close();
      await http.shutdown();
    },
  };
}

/** Sends raw HTTP/1.1 `lines` (without the final blank line) plus `body`; resolves status and body text. */
export async function rawHttp(
  port: number,
  lines: string[],
  body = "",
): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const head = [
      ...lines,
      `Content-Length: ${new TextEncoder().encode(body).length}`,
      "Connection: close",
      "",
      "",
    ];
    await conn.write(new TextEncoder().encode(head.join("\r\n") + body));
    const text = await new Response(conn.readable).text();
    const [top, ...rest] = text.split("\r\n\r\n");
    return { status: Number(top.split(" ")[1]), body: rest.join("\r\n\r\n") };
  } catch (error) {
    conn.close();
    throw error;
  }
}

/** The initialize request body. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1.0.0" } },
};

/** A POST to `/mcp` with MCP's headers plus `headers`. */
export function mcpPost(
  body: unknown,
  headers: Record<string, string> = {},
  url = "http://127.0.0.1/mcp",
): Request {
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** The notification a client sends once `initialize` has been answered. */
export const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

/** Options for {@linkcode openSession}. */
export interface OpenSessionOptions {
  /** Extra request headers (credentials). */
  headers?: Record<string, string>;
  /** Connection facts passed to the handler (the peer address). */
  info?: ServeInfo;
  /** Send `notifications/initialized` after `initialize`, as real clients do. @default true */
  initialized?: boolean;
}

/** Initializes a session through `handler` (answers drained); resolves its id. */
export async function openSession(
  handler: McpFetchHandler,
  options: OpenSessionOptions = {},
): Promise<string> {
  const { headers = {}, info, initialized = true } = options;
  const response = await handler(mcpPost(INITIALIZE, headers), info);
  await response.body?.cancel();
  const id = response.headers.get("mcp-session-id");
  if (response.status !== 200 || id === null) throw new Error(`initialize failed: ${response.status}`);
  if (initialized) {
    const sessionHeaders = { ...headers, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
    const notified = await handler(mcpPost(INITIALIZED, sessionHeaders), info);
    await notified.body?.cancel();
    if (notified.status !== 202) throw new Error(`notifications/initialized failed: ${notified.status}`);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return id;
}

/** A server with an `echo` tool (and `whoami`, answering the caller's IP). */
export function echoServer(options: ToolServerOptions = {}): ToolServer {
  return createToolServer({ name: "echo-server", ...options })
    .tool("echo", { description: "Echo the text", input: z.object({ text: z.string() }) }, ({ text }) => text)
    .tool("whoami", { description: "The caller's IP" }, (_args, ctx) => ctx.ipAddress ?? "unknown");
}
