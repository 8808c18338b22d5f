/**
 * The HTTP face of the modern leg: SDK v2's `createMcpHandler` in strict mode (`legacy: "reject"`;
 * 2025-era traffic is routed elsewhere before it gets here), building a {@linkcode createModernServer}
 * per request. Registrations while serving reach clients listening on `subscriptions/listen` through
 * a {@linkcode ListenBus}, as `list_changed` notifications reach 2025-era sessions.
 *
 * @module
 */

import { type AuthInfo, createMcpHandler, type McpServer } from "@modelcontextprotocol/server";
import { describeError } from "../../_util/errors.ts";
import type { ToolServer } from "../tool_server.ts";
import { acceptsEventStream, streamWhenSlow } from "./_stream_when_slow.ts";
import { ListenBus } from "./listen_bus.ts";
import { createModernServer, type ModernServerOptions } from "./modern_server.ts";

/** Options for {@linkcode createModernHandler}. */
export interface ModernHandlerOptions {
  /** Answer with a JSON body instead of upgrading to SSE (drops mid-call progress and logs). @default false */
  enableJsonResponse?: boolean;
  /** Largest request body read, in bytes. @default 4194304 */
  maxRequestBodySize?: number;
  /**
   * Milliseconds a request may go unanswered before its answer is sent as an SSE stream opened at once
   * (see `_stream_when_slow.ts`: under `Deno.serve` only a started response notices a client that
   * cancels). Ignored with `enableJsonResponse`. @default 100
   */
  streamAfterMs?: number;
  /**
   * Builds the SDK server of a request; `options.method` is the request's method when the entry has
   * checked it (see {@linkcode ModernServerOptions.method}). @default {@linkcode createModernServer}
   */
  factory?: (server: ToolServer, options?: ModernServerOptions) => McpServer;
}

/** The modern leg of an HTTP endpoint. */
export interface ModernHandler {
  /**
   * Answers one 2026-07-28 request. `authInfo` reaches the handlers as it is; `parsedBody`, when
   * given, is the request's JSON body already read (the request's own body is then not read).
   */
  fetch(request: Request, authInfo?: AuthInfo, parsedBody?: unknown): Promise<Response>;
  /** Ends in-flight exchanges and listen streams, and stops relaying list changes. */
  close(): Promise<void>;
}

function methodOf(request: Request | undefined): string | undefined {
  return request?.headers.get("mcp-method")?.trim();
}

const STREAM_AFTER_MS = 100;

/** Whether `body` is one JSON-RPC request (it has an id, so it waits for an answer). */
function isRequest(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const message = body as { id?: unknown; method?: unknown };
  return typeof message.method === "string" &&
    (typeof message.id === "string" || typeof message.id === "number");
}

/** The modern leg serving `server`. */
export function createModernHandler(server: ToolServer, options: ModernHandlerOptions = {}): ModernHandler {
  const build = options.factory ?? createModernServer;
  const bus = new ListenBus(server);
  // The SDK calls the factory after its header checks: a request's Mcp-Method header then names the
  // method of its body (a mismatch or a missing header is answered before).
  const handler = createMcpHandler(({ requestInfo }) => build(server, { method: methodOf(requestInfo) }), {
    legacy: "reject",
    bus,
    responseMode: options.enableJsonResponse ? "json" : "auto",
    maxRequestBodySize: options.maxRequestBodySize,
    onerror: (error) => server.logger.debug("MCP modern request", { error: describeError(error) }),
  });
  const streamAfterMs = options.enableJsonResponse ? undefined : options.streamAfterMs ?? STREAM_AFTER_MS;
  return {
    fetch(request, authInfo, parsedBody) {
      const answer = handler.fetch(request, { authInfo, parsedBody });
      if (streamAfterMs === undefined || !isRequest(parsedBody) || !acceptsEventStream(request)) {
        return answer;
      }
      return streamWhenSlow(answer, streamAfterMs);
    },
    async close() {
      bus.close();
      await handler.close();
    },
  };
}
