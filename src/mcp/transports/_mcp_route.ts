/**
 * What the MCP routes share: the per-request context the fetch handler passes in, the session value
 * kept in the session table, the `authInfo` that carries the caller's IP to the protocol layer, the
 * answers to a refused session and the move of a session to the initialised pool.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/auth/types"
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
// @ts-types="@modelcontextprotocol/sdk/server/index"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describeError } from "../../_util/errors.ts";
import type { ToolServer } from "../tool_server.ts";
import { rpcError } from "./_http.ts";
import type { Admission, SessionTable } from "./_session_table.ts";

/** Facts about one request established before the MCP route runs. */
export interface RouteContext {
  /** The verified credential's principal, when the auth gate is on. */
  principal?: string;
  /** The caller's IP address. */
  ipAddress?: string;
  /** The key the caller's sessions count under (principal, else address); none without either. */
  client?: string;
  /** The POST body, when the front has already read and parsed it (the route must not read it again). */
  body?: { value: unknown };
}

/** One MCP route (streamable HTTP or SSE). */
export interface McpRoute {
  /** Whether `path` belongs to this route. */
  handles(path: string): boolean;
  /** Answers a request for one of its paths. */
  handle(request: Request, context: RouteContext): Promise<Response>;
}

/** A live session: its transport and how to end it. */
export interface LiveSession<T extends Transport = Transport> {
  /** The session's transport. */
  transport: T;
  /** Closes the SDK server (and with it the transport). */
  close(): Promise<void>;
}

/** Shared settings of the routes. */
export interface RouteSettings {
  /** The sessions of this handler. */
  sessions: SessionTable<LiveSession>;
  /** Retry-After seconds for a client over its session cap. */
  clientRetryAfter: number;
}

/** The answer to a session that may not be opened (`admission` other than "ok"). */
export function sessionRefused(admission: Exclude<Admission, "ok">, clientRetryAfter: number): Response {
  switch (admission) {
    case "client":
      return rpcError(429, -32000, "Too many sessions for this client", {
        "retry-after": String(clientRetryAfter),
      });
    case "full":
      return rpcError(503, -32000, "Too many sessions", { "retry-after": "60" });
    case "closed":
      return rpcError(503, -32000, "Server is shutting down");
  }
}

/**
 * Moves the session to the initialised pool when the client sends `notifications/initialized`;
 * closes it when that pool is full (the client's next request gets 404 and it re-initialises).
 */
export function promoteOnInitialized(
  sdk: Server,
  sessions: SessionTable<LiveSession>,
  sessionId: () => string | undefined,
): void {
  sdk.oninitialized = () => {
    const id = sessionId();
    if (id === undefined || sessions.promote(id)) return;
    void sdk.close().catch(() => undefined);
  };
}

/** `authInfo` for the SDK transports: only `extra.ipAddress` is meaningful. */
export function authInfo(ipAddress: string | undefined): AuthInfo {
  return { token: "", clientId: "", scopes: [], extra: ipAddress === undefined ? {} : { ipAddress } };
}

/** Routes transport errors (bad requests, broken streams) to the server's debug log. */
export function logTransportErrors(server: ToolServer, transport: Transport): void {
  transport.onerror = (error) => server.logger.debug("MCP transport error", { error: describeError(error) });
}

/**
 * `response` with a body that runs `done` once fully sent or cancelled by the client; without a body,
 * `done` runs before the response is returned.
 */
export async function closeWhenSent(response: Response, done: () => Promise<void>): Promise<Response> {
  if (!response.body) {
    await done();
    return response;
  }
  const reader = response.body.getReader();
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done().catch(() => undefined);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          finish();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
      finish();
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
