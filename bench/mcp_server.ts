/**
 * MCP benchmark servers, each run as its own `deno run` subprocess on `Deno.serve` (127.0.0.1, port 0),
 * all serving one tool `echo` (zod input `{ text: string }`, answers the text as one text block) over
 * streamable HTTP at `/mcp`, stateful, answering POSTs with an SSE stream (`enableJsonResponse: false`,
 * as `toFetchHandler` does by default):
 *
 * - `--variant sdk2`: (a2) the bare SDK v2 for 2026-07-28 (`_mcp_sdk2.ts`: `McpServer` per request behind
 *   `createMcpHandler(factory, { legacy: "reject" })`).
 * - `--variant sdk`: (a) the bare SDK: `McpServer.registerTool` per session, a
 *   `WebStandardStreamableHTTPServerTransport` per session and a session map, set up the way
 *   `src/mcp/transports/_streamable_route.ts` sets up its transports (same options, same session bookkeeping).
 * - `--variant ours`: (b) `createToolServer` + `toFetchHandler(server, { transport: "http" })`, no middleware.
 *   The same handler serves 2025 sessions and 2026-07-28 requests (it routes each request by era), so
 *   (b2) and (c2) run these variants too and differ only in the requests the load sends.
 * - `--variant ours-mw --audit-log FILE`: (c) the same with, outermost first, `auditMiddleware` (signed
 *   chain appended to FILE, `hmacSecret` given), `circuitBreaker()`, `authMiddleware(ApiKeyAuth)` (the tool
 *   has `auth: true`; calls must carry `x-api-key`), `rateLimitMiddleware` (a bucket far too large to ever
 *   refuse) and `timeoutMiddleware()` — the documented production order. `--middleware a,b,...` serves a
 *   subset instead (names in {@linkcode MIDDLEWARE}), for diagnosis.
 *
 * Prints `{"url", "pid"}` on stdout once listening; exits on SIGTERM or when stdin closes.
 *
 * Usage: `deno run --allow-all bench/mcp_server.ts --variant sdk|sdk2|ours|ours-mw [--audit-log FILE]
 * [--middleware LIST]`
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  ApiKeyAuth,
  auditMiddleware,
  authMiddleware,
  circuitBreaker,
  createToolServer,
  type McpFetchHandler,
  type Middleware,
  rateLimitMiddleware,
  timeoutMiddleware,
  toFetchHandler,
} from "../src/mcp/mod.ts";
import { flag, serveUntilTold } from "./_serve_until_told.ts";
import { sdk2Handler } from "./_mcp_sdk2.ts";

export { MCP_PATH, TOOL_NAME } from "./_mcp_constants.ts";
import { MCP_PATH, TOOL_NAME } from "./_mcp_constants.ts";
/** The key variant (c) accepts in `x-api-key` (the load sends it to every variant). */
export const API_KEY = "mcp-bench-key-0123456789abcdef";
/** HMAC key of variant (c)'s audit chain. */
export const AUDIT_SECRET = "mcp-bench-audit-secret-0123456789";
/** Server variants this script serves. */
export const VARIANTS = ["sdk", "sdk2", "ours", "ours-mw"] as const;
/** A variant this script serves. */
export type Variant = (typeof VARIANTS)[number];

const DESCRIPTION = "Echo the text back";
const INPUT = z.object({ text: z.string() });

/** (a) The bare SDK: one `McpServer` and transport per session, sessions in a map. */
export function sdkHandler(): (request: Request) => Promise<Response> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const json = (status: number, message: string) =>
    Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status });
  return async (request) => {
    if (new URL(request.url).pathname !== MCP_PATH) return json(404, "Not found");
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const transport = sessions.get(id);
      return transport ? await transport.handleRequest(request) : json(404, "Session not found");
    }
    if (request.method !== "POST") return json(400, "Bad Request: Mcp-Session-Id header is required");
    const body: unknown = await request.json();
    if (!isInitializeRequest(body)) return json(400, "Bad Request: Mcp-Session-Id header is required");
    const server = new McpServer({ name: "sdk-bench", version: "1.0.0" });
    server.registerTool(TOOL_NAME, { description: DESCRIPTION, inputSchema: INPUT }, ({ text }) => ({
      content: [{ type: "text", text }],
    }));
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: false,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  };
}

/** Middleware of variant (c), in order (outermost first); `--middleware` picks a subset for diagnosis. */
export const MIDDLEWARE = [
  "audit",
  "audit-memory",
  "audit-unsigned",
  "breaker",
  "auth",
  "rate",
  "timeout",
  "noop",
] as const;
/** A middleware name `--middleware` accepts. */
export type MiddlewareName = (typeof MIDDLEWARE)[number];
/** The full set of variant (c). */
export const FULL_MIDDLEWARE = "audit,breaker,auth,rate,timeout";

/**
 * (b) and (c): our tool server through `toFetchHandler`, with the named middleware: `audit` (signed, to
 * the file), `audit-memory` (signed, in memory only), `audit-unsigned` (to the file, `signed: false`),
 * `breaker`, `auth` (the tool then has `auth: true`), `rate`, `timeout`, `noop` (an async middleware that
 * only awaits `next()`: the cost of a layer as such).
 */
export function oursHandler(names: string[], auditLog: string | undefined): McpFetchHandler {
  const server = createToolServer({ name: "agentry-bench" });
  const log = () => {
    if (!auditLog) throw new Error("audit middleware needs --audit-log FILE");
    return auditLog;
  };
  const make: Record<MiddlewareName, () => Middleware> = {
    audit: () => auditMiddleware({ logPath: log(), hmacSecret: AUDIT_SECRET }),
    "audit-memory": () => auditMiddleware({ hmacSecret: AUDIT_SECRET }),
    "audit-unsigned": () => auditMiddleware({ logPath: log(), signed: false }),
    breaker: () => circuitBreaker(),
    auth: () => authMiddleware(new ApiKeyAuth({ keys: { [API_KEY]: "bench-client" } })),
    rate: () => rateLimitMiddleware({ ratePerMinute: 1e9, burst: 1e9 }),
    timeout: () => timeoutMiddleware(),
    noop: () => async (_ctx, next) => await next(),
  };
  for (const name of names) {
    if (!(MIDDLEWARE as readonly string[]).includes(name)) throw new Error(`unknown middleware '${name}'`);
    server.use(make[name as MiddlewareName]());
  }
  const auth = names.includes("auth");
  server.tool(TOOL_NAME, { description: DESCRIPTION, input: INPUT, auth }, ({ text }) => text);
  return toFetchHandler(server, { transport: "http" });
}

if (import.meta.main) {
  const variant = flag("variant") as Variant | undefined;
  if (!variant || !VARIANTS.includes(variant)) {
    throw new Error(
      "usage: mcp_server.ts --variant sdk|sdk2|ours|ours-mw [--audit-log FILE] [--middleware LIST]",
    );
  }
  const names = variant === "ours" ? [] : (flag("middleware") ?? FULL_MIDDLEWARE).split(",").filter(Boolean);
  const ours = variant.startsWith("sdk") ? undefined : oursHandler(names, flag("audit-log"));
  const sdk2 = variant === "sdk2" ? sdk2Handler() : undefined;
  const handler = ours ?? sdk2?.fetch ?? sdkHandler();
  const listening = Promise.withResolvers<string>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ hostname, port }) => listening.resolve(`http://${hostname}:${port}`),
  }, handler);
  await serveUntilTold(await listening.promise, async () => {
    await ours?.close();
    await sdk2?.close();
    await server.shutdown();
  });
}
