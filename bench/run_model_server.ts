/**
 * The agent-run benchmark's servers, in one `deno run` subprocess of their own: the local model server
 * (`startModelServer`, requests not recorded) answering at once, and a tiny MCP server (`createToolServer`
 * + `toFetchHandler`, streamable HTTP, stateful, SSE answers) with one tool `lookup_order` on
 * `127.0.0.1:<mcp-port>/mcp`. Both answer every run of the benchmark, the agent runtime's and the bare
 * loop's alike, so their cost lands in this process and not in the measured one.
 *
 * The model's script ({@linkcode benchReply}): after a tool result it answers {@linkcode TOOL_REPLY}; when
 * the last user message asks for a lookup ({@linkcode LOOKUP_TASK}) it asks for one call of
 * {@linkcode TOOL_CALL_NAME} with `{"id": 42}`; otherwise it answers {@linkcode PLAIN_REPLY}.
 *
 * Prints `{"url", "pid"}` (the model server's `/v1` base URL) on stdout once ready; exits on SIGTERM or
 * when stdin closes.
 *
 * Usage: `deno run --allow-all bench/run_model_server.ts --mcp-port P`
 *
 * @module
 */

import { z } from "zod";
import { createToolServer, toFetchHandler } from "../src/mcp/mod.ts";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../src/models/testing/mod.ts";
import { flag, serveUntilTold } from "./_serve_until_told.ts";

/** The MCP server's name in the agent's `servers` config. */
export const MCP_SERVER_NAME = "orders";
/** The MCP tool. */
export const MCP_TOOL = "lookup_order";
/** The tool as the model sees it (`<server>__<tool>`). */
export const TOOL_CALL_NAME = `${MCP_SERVER_NAME}__${MCP_TOOL}`;
/** Path of the MCP endpoint. */
export const MCP_PATH = "/mcp";
/** Payload task that makes the model ask for the tool. */
export const LOOKUP_TASK = "lookup";
/** The final reply after a tool result. */
export const TOOL_REPLY = "Order 42 has shipped.";
/** The reply without a tool step. */
export const PLAIN_REPLY = "Noted.";
/** What the tool answers for order `id`. */
export function toolAnswer(id: number): string {
  return `order ${id}: shipped on 2026-11-20`;
}

/** The model's answer to one request (see the module doc). */
export function benchReply(request: RecordedRequest): ScriptedReply {
  const last = request.messages[request.messages.length - 1];
  if (last?.role === "tool") return { text: TOOL_REPLY };
  if (last?.role === "user" && last.content.includes(`"task": "${LOOKUP_TASK}"`)) {
    return { toolCalls: [{ name: TOOL_CALL_NAME, arguments: { id: 42 } }] };
  }
  return { text: PLAIN_REPLY };
}

if (import.meta.main) {
  const mcpPort = Number(flag("mcp-port"));
  if (!mcpPort) throw new Error("usage: --mcp-port P");
  const model = startModelServer({ record: false, respond: benchReply });
  const tools = createToolServer({ name: MCP_SERVER_NAME });
  tools.tool(MCP_TOOL, {
    description: "Look up an order by id",
    input: z.object({ id: z.number().int() }),
  }, ({ id }) => toolAnswer(id));
  await tools.startup();
  const handler = toFetchHandler(tools);
  const mcp = Deno.serve({ hostname: "127.0.0.1", port: mcpPort, onListen: () => {} }, handler);
  await serveUntilTold(model.url, async () => {
    await mcp.shutdown();
    await tools.shutdown();
    await model.close();
  });
}
