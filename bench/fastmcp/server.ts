/**
 * MCP benchmark server (d): the same `echo` tool as `mcp_server.ts` (zod input `{ text: string }`,
 * answers the text) on FastMCP (npm `fastmcp`, run under Deno) with its `httpStream` transport at `/mcp`
 * on 127.0.0.1: stateful sessions, SSE answers (`enableJsonResponse: false`, as the other variants).
 * FastMCP's own settings are left at their defaults (its 5 s session ping included), except its logger:
 * info and debug lines are dropped (FastMCP logs one per session on stdout, where this script announces
 * its URL), warnings and errors go to stderr.
 *
 * Prints `{"url", "pid"}` on stdout once listening; exits on SIGTERM or when stdin closes.
 *
 * Usage: `deno run --allow-all bench/mcp_fastmcp_server.ts`
 *
 * It runs with its own config (`bench/fastmcp/deno.json`): fastmcp is a bench-only dependency and stays
 * out of the project's import map and lockfile.
 *
 * @module
 */

import { FastMCP } from "fastmcp";
import { z } from "zod";
import { serveUntilTold } from "../_serve_until_told.ts";
import { MCP_PATH, TOOL_NAME } from "../_mcp_constants.ts";

/** A port that was free a moment ago (FastMCP does not report the port it bound). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

if (import.meta.main) {
  const quiet = () => undefined;
  const server = new FastMCP({
    name: "fastmcp-bench",
    version: "1.0.0",
    logger: { debug: quiet, info: quiet, log: quiet, warn: console.error, error: console.error },
  });
  server.addTool({
    name: TOOL_NAME,
    description: "Echo the text back",
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => Promise.resolve(text),
  });
  const port = freePort();
  await server.start({
    transportType: "httpStream",
    httpStream: { host: "127.0.0.1", port, endpoint: MCP_PATH, enableJsonResponse: false, stateless: false },
  });
  await serveUntilTold(`http://127.0.0.1:${port}`, () => server.stop());
}
