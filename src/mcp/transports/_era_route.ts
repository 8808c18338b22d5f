/**
 * The streamable HTTP endpoint serving both protocol revisions: each request goes to the 2025-era
 * route (sessions, or the stateless option) or to the 2026-07-28 leg, by what the client sent (the
 * SDK's `isLegacyRequest`: a request carrying the `_meta` envelope claim is modern, anything else,
 * `initialize` included, is 2025-era). A POST body is read once, here, under the size and time
 * limits, and handed to whichever leg answers.
 *
 * @module
 */

import { isLegacyRequest } from "@modelcontextprotocol/server";
import type { ModernHandler } from "../modern/modern_handler.ts";
import { bodyProblem, isJsonType, MAX_MESSAGE_BYTES, readJson, rpcError } from "./_http.ts";
import { authInfo, type McpRoute } from "./_mcp_route.ts";

/** `legacy` for 2025-era requests, `modern` for 2026-07-28 ones, on the same path. */
export function eraRoute(legacy: McpRoute, modern: ModernHandler): McpRoute {
  return {
    handles: (path) => legacy.handles(path),
    async handle(request, context) {
      if (request.method !== "POST") {
        // GET and DELETE carry no body: session operations unless the headers claim the modern revision.
        if (await isLegacyRequest(request)) return await legacy.handle(request, context);
        return await modern.fetch(request, authInfo(context.ipAddress));
      }
      if (!isJsonType(request.headers.get("content-type"))) {
        return rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      }
      const body = await readJson(request, MAX_MESSAGE_BYTES);
      if (typeof body === "number") return bodyProblem(body);
      if (await isLegacyRequest(request, body.value)) {
        return await legacy.handle(request, { ...context, body });
      }
      return await modern.fetch(request, authInfo(context.ipAddress), body.value);
    },
  };
}
