/**
 * Test helpers: bare servers built on the MCP SDKs alone (no Agentry framework), served on 127.0.0.1,
 * to prove the agent's client speaks to servers it did not build: SDK v1 (`McpServer`, 2025-era
 * `initialize` sessions) and SDK v2 (`createMcpHandler`, 2026-07-28 stateless with its 2025 fallback).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/** A bare SDK server on a loopback port. */
export interface SdkServer extends AsyncDisposable {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Request headers seen, in order (lower-cased names). */
  readonly requests: { method: string; headers: Record<string, string> }[];
}

function serve(handler: (request: Request) => Promise<Response>): Promise<SdkServer> {
  const requests: SdkServer["requests"] = [];
  const listening = Promise.withResolvers<number>();
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: (address) => listening.resolve(address.port) },
    (request) => {
      requests.push({ method: request.method, headers: Object.fromEntries(request.headers) });
      if (new URL(request.url).pathname !== "/mcp") return new Response("not found", { status: 404 });
      return handler(request);
    },
  );
  return listening.promise.then((port) => ({
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    [Symbol.asyncDispose]: () => http.shutdown(),
  }));
}

const ECHO = { description: "Echo the text", inputSchema: z.object({ text: z.string() }) };

/** SDK v1 `McpServer` with an `echo` tool, one session per `initialize` (the SDK's documented pattern). */
export function sdkV1HttpServer(): Promise<SdkServer> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const refuse = (status: number, message: string) =>
    Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status });
  return serve(async (request) => {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const transport = sessions.get(id);
      return transport ? await transport.handleRequest(request) : refuse(404, "Session not found");
    }
    if (request.method !== "POST") return refuse(400, "Bad Request: Mcp-Session-Id header is required");
    const body: unknown = await request.json();
    if (!isInitializeRequest(body)) return refuse(400, "Bad Request: Mcp-Session-Id header is required");
    const server = new McpServerV1({ name: "bare-v1", version: "1.0.0" });
    server.registerTool("echo", ECHO, ({ text }) => ({ content: [{ type: "text", text }] }));
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  });
}

/**
 * SDK v2 `McpServer` through `createMcpHandler` (2026-07-28, and 2025 clients on its stateless legacy
 * leg) with `echo` and `confirm`, which asks for an elicitation (`input_required`) until one is accepted.
 */
export function sdkV2HttpServer(): Promise<SdkServer> {
  const confirmation = z.object({ confirm: z.boolean() });
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "bare-v2", version: "2.0.0" });
    server.registerTool("echo", ECHO, ({ text }) => ({ content: [{ type: "text", text }] }));
    server.registerTool("confirm", { description: "Asks before answering" }, (ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm", confirmation);
      if (answer?.confirm === true) return { content: [{ type: "text", text: "confirmed" }] };
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({ message: "Go on?", requestedSchema: confirmation }),
        },
      });
    });
    return server;
  });
  return serve((request) => handler.fetch(request)).then((served) => ({
    ...served,
    [Symbol.asyncDispose]: async () => {
      await handler.close();
      await served[Symbol.asyncDispose]();
    },
  }));
}
