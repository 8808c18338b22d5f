/**
 * The legacy SSE route: `GET /sse` opens a session (an {@linkcode SseServerTransport} plus a session
 * server), `POST /messages/?session_id=<id>` delivers the client's messages to it.
 *
 * @module
 */

import { createSessionServer } from "../protocol.ts";
import type { ToolServer } from "../tool_server.ts";
import { rpcError, sessionNotFound } from "./_http.ts";
import {
  authInfo,
  logTransportErrors,
  type McpRoute,
  promoteOnInitialized,
  type RouteContext,
  type RouteSettings,
  sessionRefused,
} from "./_mcp_route.ts";
import { SseServerTransport } from "./sse_server_transport.ts";

const STREAM_PATH = "/sse";
const MESSAGE_PATHS = new Set(["/messages/", "/messages"]);

/** The SSE route for `server`. */
export function sseRoute(server: ToolServer, settings: RouteSettings): McpRoute {
  const { sessions, clientRetryAfter } = settings;

  async function open(request: Request, context: RouteContext): Promise<Response> {
    if (request.method !== "GET") return rpcError(405, -32000, "Method not allowed.", { allow: "GET" });
    if (!request.headers.get("accept")?.includes("text/event-stream")) {
      return rpcError(406, -32000, "Not Acceptable: Client must accept text/event-stream");
    }
    const admission = sessions.reserve(context.client);
    if (admission !== "ok") return sessionRefused(admission, clientRetryAfter);
    try {
      const transport = new SseServerTransport({ endpoint: "/messages/" });
      const sdk = createSessionServer(server, { live: true });
      transport.onclose = () => sessions.delete(transport.sessionId);
      logTransportErrors(server, transport);
      promoteOnInitialized(sdk, sessions, () => transport.sessionId);
      await sdk.connect(transport);
      const session = { transport, close: () => sdk.close() };
      if (
        !sessions.add(transport.sessionId, session, { principal: context.principal, client: context.client })
      ) {
        await sdk.close();
        return rpcError(503, -32000, "Server is shutting down");
      }
      return transport.response;
    } finally {
      sessions.release(context.client);
    }
  }

  async function post(request: Request, context: RouteContext): Promise<Response> {
    if (request.method !== "POST") return rpcError(405, -32000, "Method not allowed.", { allow: "POST" });
    const id = new URL(request.url).searchParams.get("session_id");
    if (id === null) return rpcError(400, -32000, "Bad Request: session_id query parameter is required");
    const session = sessions.get(id, context.principal);
    if (!session) return sessionNotFound();
    const transport = session.transport as SseServerTransport;
    return await transport.handlePostMessage(request, { authInfo: authInfo(context.ipAddress) });
  }

  return {
    handles: (path) => path === STREAM_PATH || MESSAGE_PATHS.has(path),
    handle: (request, context) =>
      new URL(request.url).pathname === STREAM_PATH ? open(request, context) : post(request, context),
  };
}
