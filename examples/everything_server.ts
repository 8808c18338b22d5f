/**
 * The MCP "everything" server: every tool, resource, template, prompt, completion, log message,
 * progress report, sampling and elicitation request that the MCP conformance suite
 * (`@modelcontextprotocol/conformance`, server mode) checks, written with Agentry's tool-server API.
 *
 * Serve it and point the suite at it:
 *
 * ```sh
 * agentry serve examples/everything_server.ts --transport http
 * npx @modelcontextprotocol/conformance server --url http://localhost:<port>/mcp
 * ```
 *
 * The parts live in `examples/everything/`: content tools, session tools (logging, progress,
 * sampling, elicitation), resources and prompts. Capabilities (`tools`, `resources` with
 * `subscribe`, `prompts`, `logging`, `completions`), `ping`, `logging/setLevel` and
 * `resources/subscribe` are answered by the framework for every server.
 *
 * @module
 */

import { createToolServer, type ToolServer } from "../src/mcp/mod.ts";
import { contentTools } from "./everything/content_tools.ts";
import { inputRequiredTools } from "./everything/input_required_tools.ts";
import { prompts } from "./everything/prompts.ts";
import { resources } from "./everything/resources.ts";
import { sessionTools } from "./everything/session_tools.ts";

/** URI of the resource that changes while the server runs. */
export const WATCHED_URI: string = "test://watched-resource";

/** Milliseconds between updates of the watched resource once the server has started. */
export const WATCHED_UPDATE_MS: number = 10_000;

/** A new "everything" server. */
export default function buildServer(): ToolServer {
  const server = createToolServer({ name: "agentry-everything-server", version: "1.0.0" });
  server.include(contentTools());
  server.include(sessionTools());
  server.include(resources());
  server.include(prompts());
  server.include(inputRequiredTools());

  // resources-subscribe, resources-unsubscribe: clients subscribe to this URI; while serving, each
  // update sends `notifications/resources/updated` to the sessions subscribed to it.
  let revision = 0;
  let ticker: ReturnType<typeof setInterval> | undefined;
  server.resource(
    WATCHED_URI,
    { name: "watched-resource", description: "A resource that auto-updates", mimeType: "text/plain" },
    () => `Watched resource content, revision ${revision}`,
  );
  server.onStartup(() => {
    ticker = setInterval(() => {
      revision += 1;
      void server.notifyResourceUpdated(WATCHED_URI);
    }, WATCHED_UPDATE_MS);
  });
  server.onShutdown(() => clearInterval(ticker));

  return server;
}
