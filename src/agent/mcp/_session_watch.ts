/**
 * What a server link asks of its session: the tool list, whether the server is there (ping on a 2025
 * session, `server/discover` on 2026-07-28, which has no ping), the `subscriptions/listen` stream that
 * carries tool-list changes on 2026-07-28, and what a failed call tells the model.
 *
 * @module
 */

import { type Client, ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { type ToolOutcome, truncateText } from "./tool_outcome.ts";

/** A tool as its server lists it. */
export interface ListedTool {
  /** The server's own name for it. */
  name: string;
  /** Description, "" when the server gave none. */
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: Record<string, unknown>;
}

/** Every tool the server lists. */
export async function listAll(client: Client, timeoutMs: number): Promise<ListedTool[]> {
  // Without a cursor the client walks every page (up to its `listMaxPages`) and keeps the list: it
  // checks results against output schemas and mirrors `x-mcp-header` arguments from it.
  const answer = await client.listTools(undefined, { timeout: timeoutMs, cacheMode: "refresh" });
  return answer.tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? tool.title ?? "",
    inputSchema: tool.inputSchema as Record<string, unknown>,
  }));
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Resolves when the server answers within `timeoutMs`; rejects when it does not. */
export async function probeServer(client: Client, timeoutMs: number): Promise<void> {
  if (client.getProtocolEra() === "modern") await client.discover({ timeout: timeoutMs });
  else await client.ping({ timeout: timeoutMs });
}

/**
 * On a 2026-07-28 connection to a server announcing `tools.listChanged`, opens a `subscriptions/listen`
 * stream for tool-list changes (they reach the client's `notifications/tools/list_changed` handler).
 * Resolves with `ended`, a promise of how the stream ended (`remote`: it dropped), or `undefined` when
 * there is nothing to listen for; rejects when the server refuses the stream.
 */
export async function listenForToolChanges(
  client: Client,
  timeoutMs: number,
): Promise<{ ended: Promise<"local" | "graceful" | "remote"> } | undefined> {
  if (client.getProtocolEra() !== "modern") return undefined;
  if (client.getServerCapabilities()?.tools?.listChanged !== true) return undefined;
  const subscription = await client.listen({ toolsListChanged: true }, { timeout: timeoutMs });
  return { ended: subscription.closed };
}

/** The call and server a failure belongs to. */
export interface FailedCall {
  /** Server name. */
  server: string;
  /** The server's own name for the tool. */
  tool: string;
  /** The call's bound, in ms. */
  timeoutMs: number;
}

/** SDK failures that say nothing about the connection: the call failed, the server is fine. */
const CALL_ONLY: ReadonlySet<string> = new Set([
  SdkErrorCode.InvalidResult,
  SdkErrorCode.UnsupportedResultType,
  SdkErrorCode.InputRequiredRoundsExceeded,
  SdkErrorCode.MethodNotSupportedByProtocolVersion,
  SdkErrorCode.CapabilityNotSupported,
]);

/**
 * What the model reads for a failed call, or `undefined` when the failure means the connection is gone
 * (the caller reconnects). A server's JSON-RPC error is passed on in its own words (cut to 1,000
 * characters); a request for input an agent cannot give (elicitation, sampling, roots) is named as such.
 */
export function callFailure(error: unknown, call: FailedCall): ToolOutcome | undefined {
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return {
      isError: true,
      content: `tool ${call.tool} on server ${call.server} did not answer within ${call.timeoutMs} ms`,
    };
  }
  if (error instanceof ProtocolError) {
    return {
      isError: true,
      content: truncateText(`server ${call.server} refused the call: ${error.message}`, 1_000),
    };
  }
  if (error instanceof SdkError && CALL_ONLY.has(error.code)) {
    const method = (error.data as { method?: unknown } | undefined)?.method;
    const content = error.code === SdkErrorCode.CapabilityNotSupported && typeof method === "string"
      ? `server ${call.server} asked for input during tool ${call.tool} (${method}), which this agent cannot give`
      : `server ${call.server} gave an answer to tool ${call.tool} that could not be used: ${error.message}`;
    return { isError: true, content: truncateText(content, 1_000) };
  }
  return undefined;
}
