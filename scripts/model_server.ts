/**
 * Serves the echo model (see `src/models/testing/mod.ts`) for trying Agentry without a model key, and for
 * benchmarks: Chat Completions, the Responses API and the Anthropic Messages API on one port.
 *
 * Usage: deno run --allow-net scripts/model_server.ts [--port 11435] [--hostname 127.0.0.1] [--mcpcast]
 * (or: deno task model-server). Prints one line `model server listening on <url>` to stderr and stops on
 * SIGINT or SIGTERM. Then, e.g.: `OPENAI_COMPATIBLE_BASE_URL=<url>` with `model: "openai-compatible:echo"`.
 * With `--mcpcast` it answers as the scripted mcpcast model (`mcpcast_model.ts`) instead of the echo model.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { startModelServer } from "../src/models/testing/mod.ts";
import { mcpcastModelReply } from "./mcpcast_model.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    port: { type: "string", default: "11435" },
    hostname: { type: "string", default: "127.0.0.1" },
    mcpcast: { type: "boolean", default: false },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`model server: --port must be a port number, got "${values.port}"`);
  Deno.exit(2);
}
const respond = values.mcpcast ? mcpcastModelReply : undefined;
const server = startModelServer({ hostname: values.hostname, port, record: false, respond });
console.error(`model server listening on ${server.url}`);

const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
function stop(): void {
  for (const signal of signals) Deno.removeSignalListener(signal, stop);
  void server.close();
}
for (const signal of signals) Deno.addSignalListener(signal, stop);
