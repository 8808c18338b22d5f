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

const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const LEGACY_VERSIONS = new Set(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]);

function claimsEnvelope(message: unknown): boolean {
  const meta = (message as { params?: { _meta?: unknown } } | null)?.params?._meta;
  return typeof meta === "object" && meta !== null && PROTOCOL_VERSION in meta;
}

/**
 * Whether a request is 2025-era without asking the SDK (the session hot path): its
 * `MCP-Protocol-Version` header is absent or a 2025-era revision, and no message claims the `_meta`
 * envelope. The SDK classifies every such request as legacy; anything else is left to it.
 */
export function surelyLegacy(request: Request, body: unknown): boolean {
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !LEGACY_VERSIONS.has(version.trim())) return false;
  return Array.isArray(body) ? !body.some(claimsEnvelope) : !claimsEnvelope(body);
}

/** Whether a message of `body` claims the `_meta` envelope: the SDK then never classifies it legacy. */
export function surelyModern(body: unknown): boolean {
  return Array.isArray(body) ? body.some(claimsEnvelope) : claimsEnvelope(body);
}

/** Whether `request` (with its parsed `body`) belongs to the 2025-era routes. */
async function isLegacy(request: Request, body?: unknown): Promise<boolean> {
  if (surelyModern(body)) return false;
  return surelyLegacy(request, body) || await isLegacyRequest(request, body);
}

/** `legacy` for 2025-era requests, `modern` for 2026-07-28 ones, on the same path. */
export function eraRoute(legacy: McpRoute, modern: ModernHandler): McpRoute {
  return {
    handles: (path) => legacy.handles(path),
    async handle(request, context) {
      if (request.method !== "POST") {
        // GET and DELETE carry no body: session operations unless the headers claim the modern revision.
        if (await isLegacy(request)) return await legacy.handle(request, context);
        return await modern.fetch(request, authInfo(context.ipAddress));
      }
      if (!isJsonType(request.headers.get("content-type"))) {
        return rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      }
      const body = await readJson(request, MAX_MESSAGE_BYTES);
      if (typeof body === "number") return bodyProblem(body);
      if (await isLegacy(request, body.value)) {
        return await legacy.handle(request, { ...context, body });
      }
      return await modern.fetch(request, authInfo(context.ipAddress), body.value);
    },
  };
}
