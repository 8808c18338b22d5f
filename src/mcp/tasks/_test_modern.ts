/**
 * Test helper: one stateless 2026-07-28 request over HTTP, as a client sends it (the `Mcp-Method` and
 * `Mcp-Name` headers mirror the body), declaring elicitation and the Tasks extension.
 *
 * @module
 */

import { TASKS_EXTENSION } from "./task_requests.ts";

const CAPABILITIES = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

/** The JSON-RPC answer to `method` with `params`, from the endpoint `url`. */
export async function modern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = CAPABILITIES,
) {
  const name = typeof params.name === "string"
    ? params.name
    : typeof params.taskId === "string"
    ? params.taskId
    : undefined;
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": capabilities,
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith("{")
    ? text
    : text.split("\n").find((line) => line.startsWith("data: {"))!.slice(6);
  return JSON.parse(data) as { result?: Record<string, unknown>; error?: { code: number } };
}
