/**
 * Variant (a2) of the MCP benchmark: the bare SDK v2 (`@modelcontextprotocol/server` 2.4.0) serving the
 * 2026-07-28 revision only, the way its documentation mounts it on a fetch-native runtime: a fresh
 * `McpServer` per request (the revision is stateless) with the same `echo` tool, behind
 * `createMcpHandler(factory, { legacy: "reject" })`, with the default response mode (`auto`: one JSON
 * body unless the handler emits something before its result). No Host/Origin check and no auth, as
 * variant (a) has none either.
 *
 * @module
 */

import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { MCP_PATH, TOOL_NAME } from "./_mcp_constants.ts";

const INPUT = z.object({ text: z.string() });

/** The bare SDK v2 handler at {@linkcode MCP_PATH}; `close` ends in-flight exchanges. */
export function sdk2Handler(): {
  fetch: (request: Request) => Promise<Response>;
  close: () => Promise<void>;
} {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "sdk2-bench", version: "1.0.0" });
    server.registerTool(TOOL_NAME, { description: "Echo the text back", inputSchema: INPUT }, ({ text }) => ({
      content: [{ type: "text", text }],
    }));
    return server;
  }, { legacy: "reject" });
  const notFound = () =>
    Response.json({ jsonrpc: "2.0", error: { code: -32000, message: "Not found" }, id: null }, {
      status: 404,
    });
  return {
    fetch: (request) =>
      new URL(request.url).pathname === MCP_PATH ? handler.fetch(request) : Promise.resolve(notFound()),
    close: () => handler.close(),
  };
}
