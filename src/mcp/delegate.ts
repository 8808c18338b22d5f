/**
 * Calling a tool of a server from inside another call: for tools that dispatch to other tools (a
 * meta tool that invokes a tool by name) without giving up what the server enforces.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "./request_context.ts";
import { callTool } from "./requests.ts";
import type { ToolServer } from "./tool_server.ts";

/**
 * Calls tool `name` of `server` with `args` on behalf of the request `ctx`: the same headers,
 * session (so elicitation reaches the same client), caller address and cancellation, through
 * `server`'s whole pipeline (lookup, argument validation, middleware such as auth, approval and
 * audit, guards, the handler, error mapping). Always resolves with a result; failures are `isError`
 * results with the usual envelope (`TOOL_NOT_FOUND` for an unknown name).
 *
 * @example
 * ```ts ignore
 * inner.tool("invoke", { input }, ({ name, args }, ctx) => callToolAs(tools, name, args, ctx));
 * ```
 */
export function callToolAs(
  server: ToolServer,
  name: string,
  args: unknown,
  ctx: RequestContext,
): Promise<CallToolResult> {
  return callTool(server, name, args, {
    meta: ctx.meta,
    session: ctx.session,
    signal: ctx.signal,
    ipAddress: ctx.ipAddress,
  });
}
