/**
 * Server for `bench/mcp_session_flood_bench.ts`: a tool server with an `echo` tool behind
 * `toFetchHandler` on 127.0.0.1 port 0, with the handler options given as JSON. Prints `{"url", "pid"}`
 * on stdout once listening; exits on SIGTERM or when stdin closes.
 *
 * Usage: `deno run --allow-all bench/mcp_flood_server.ts [--options '{"maxSessionsPerClient":10000}']`
 *
 * @module
 */

import { z } from "zod";
import { createToolServer, Logger, toFetchHandler } from "../src/mcp/mod.ts";
import { flag, serveUntilTold } from "./_serve_until_told.ts";

const options = JSON.parse(flag("options") ?? "{}");
const server = createToolServer({
  name: "flood-bench",
  logger: new Logger("agentry.mcp", { level: "warning" }),
})
  .tool("echo", { description: "Echo the text", input: z.object({ text: z.string() }) }, ({ text }) => text);
const handler = toFetchHandler(server, options);
const listening = Promise.withResolvers<number>();
const http = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: (address) => listening.resolve(address.port) },
  (request, info) => handler(request, info),
);
await serveUntilTold(`http://127.0.0.1:${await listening.promise}`, async () => {
  await handler.close();
  await http.shutdown();
});
