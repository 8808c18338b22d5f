/**
 * The streamable HTTP route (`/mcp`): one SDK transport and one session server per session, created
 * by an `initialize` POST without a session id; or, when stateless, a fresh pair per request that is
 * closed once its answer has been sent.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createSessionServer } from "../protocol.ts";
import type { ToolServer } from "../tool_server.ts";
import { bodyProblem, isJsonType, MAX_MESSAGE_BYTES, readJson, rpcError, sessionNotFound } from "./_http.ts";
import {
  authInfo,
  closeWhenSent,
  type LiveSession,
  logTransportErrors,
  type McpRoute,
  promoteOnInitialized,
  type RouteContext,
  type RouteSettings,
  sessionRefused,
} from "./_mcp_route.ts";

/** Settings of the streamable HTTP route. */
export interface StreamableSettings extends RouteSettings {
  /** Path of the endpoint. */
  path: string;
  /** A fresh transport per request, no sessions. */
  stateless: boolean;
  /** Answer POSTs with JSON instead of an SSE stream. */
  enableJsonResponse: boolean;
}

const NEEDS_SESSION = "Bad Request: Mcp-Session-Id header is required";

function methodNotAllowed(allow: string): Response {
  return rpcError(405, -32000, "Method not allowed.", { allow });
}

/** The streamable HTTP route for `server`. */
export function streamableRoute(server: ToolServer, settings: StreamableSettings): McpRoute {
  const { path, sessions, enableJsonResponse, clientRetryAfter } = settings;

  async function stateless(request: Request, context: RouteContext): Promise<Response> {
    if (request.method !== "POST") return methodNotAllowed("POST");
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse,
    });
    logTransportErrors(server, transport);
    const sdk = createSessionServer(server, { live: false });
    await sdk.connect(transport);
    let response: Response;
    try {
      response = await transport.handleRequest(request, {
        parsedBody: context.body?.value,
        authInfo: authInfo(context.ipAddress),
      });
    } catch (error) {
      await sdk.close();
      throw error;
    }
    return await closeWhenSent(response, () => sdk.close());
  }

  async function open(request: Request, context: RouteContext): Promise<Response> {
    if (!isJsonType(request.headers.get("content-type"))) {
      return rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    const body = context.body ?? await readJson(request, MAX_MESSAGE_BYTES);
    if (typeof body === "number") return bodyProblem(body);
    const messages = Array.isArray(body.value) ? body.value : [body.value];
    if (!messages.some((m) => isInitializeRequest(m))) return rpcError(400, -32000, NEEDS_SESSION);
    const admission = sessions.reserve(context.client);
    if (admission !== "ok") return sessionRefused(admission, clientRetryAfter);
    try {
      let opened = false;
      let added = false;
      const sdk = createSessionServer(server, { live: true });
      const transport: WebStandardStreamableHTTPServerTransport =
        new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => crypto.randomUUID(),
          enableJsonResponse,
          onsessioninitialized(id) {
            opened = true;
            added = sessions.add(id, session, { principal: context.principal, client: context.client });
          },
        });
      promoteOnInitialized(sdk, sessions, () => transport.sessionId);
      const session: LiveSession = { transport, close: () => sdk.close() };
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      logTransportErrors(server, transport);
      await sdk.connect(transport);
      const response = await transport.handleRequest(request, {
        parsedBody: body.value,
        authInfo: authInfo(context.ipAddress),
      });
      if (opened && added) return response;
      await sdk.close();
      return opened ? rpcError(503, -32000, "Server is shutting down") : response;
    } finally {
      sessions.release(context.client);
    }
  }

  async function stateful(request: Request, context: RouteContext): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = sessions.get(id, context.principal);
      if (!session) return sessionNotFound();
      const transport = session.transport as WebStandardStreamableHTTPServerTransport;
      try {
        return await transport.handleRequest(request, {
          parsedBody: context.body?.value,
          authInfo: authInfo(context.ipAddress),
        });
      } finally {
        sessions.touch(id);
      }
    }
    switch (request.method) {
      case "POST":
        return await open(request, context);
      case "GET":
        if (!request.headers.get("accept")?.includes("text/event-stream")) {
          return rpcError(406, -32000, "Not Acceptable: Client must accept text/event-stream");
        }
        return rpcError(400, -32000, NEEDS_SESSION);
      case "DELETE":
        return rpcError(400, -32000, NEEDS_SESSION);
      default:
        return methodNotAllowed("GET, POST, DELETE");
    }
  }

  return {
    handles: (p) => p === path || p === `${path}/`,
    handle: settings.stateless ? stateless : stateful,
  };
}
