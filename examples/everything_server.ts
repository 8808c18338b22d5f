/**
 * The MCP "everything" server: every tool, resource, template, prompt, completion, log message,
 * progress report, sampling and elicitation request that the MCP conformance suite
 * (`@modelcontextprotocol/conformance`, server mode) checks, written with Agentry's tool-server API.
 * One definition serves both protocol revisions: 2025-11-25 sessions and 2026-07-28 stateless requests.
 *
 * Serve it and point the suite at it:
 *
 * ```sh
 * agentry serve examples/everything_server.ts --transport http --port 3001
 * npx @modelcontextprotocol/conformance@0.2.0-alpha.12 server --url http://127.0.0.1:3001/mcp --requirements 2026-07-28
 * ```
 *
 * or run every suite CI runs (0.1.16's active scenarios, then 0.2.0-alpha.12 for 2025-11-25 and for
 * 2026-07-28, the not-scored Tasks scenarios included) with `deno task conformance` (one suite:
 * `deno task conformance --suite 2026-07-28`).
 *
 * The parts live in `examples/everything/`, one file per group: content tools, session tools (logging,
 * progress, sampling, elicitation), the 2026-07-28 diagnostic tools of `server-stateless`
 * (`test_missing_capability`, `test_streaming_elicitation`, `test_logging_tool`) and its list-mutation hooks
 * (`test_trigger_tool_change`, `test_trigger_prompt_change`), the SEP-2243 custom-header tool
 * (`test_custom_headers`), the `input_required` tools and prompt (`test_input_required_result_*`), the
 * Tasks extension's tools (`test_tool_with_task`, `greet`, `slow_compute`, ...),
 * resources and prompts. Capabilities (`tools`, `resources` with `subscribe`, `prompts`, `logging`,
 * `completions`, the Tasks extension), `ping`, `logging/setLevel`, `resources/subscribe`, `server/discover`,
 * `subscriptions/listen`, caching hints and header validation are answered by the framework for every server.
 *
 * @module
 */

import { createToolServer, type ToolServer } from "../src/mcp/mod.ts";
import { contentTools } from "./everything/content_tools.ts";
import { headerTools } from "./everything/header_tools.ts";
import { registerListChangeTools } from "./everything/list_change_tools.ts";
import { inputRequiredTools } from "./everything/input_required_tools.ts";
import { prompts } from "./everything/prompts.ts";
import { resources } from "./everything/resources.ts";
import { sessionTools } from "./everything/session_tools.ts";
import { statelessTools } from "./everything/stateless_tools.ts";
import { taskTools } from "./everything/task_tools.ts";

/** URI of the resource that changes while the server runs. */
export const WATCHED_URI: string = "test://watched-resource";

/** Milliseconds between updates of the watched resource once the server has started. */
export const WATCHED_UPDATE_MS: number = 10_000;

/** A new "everything" server. */
export default function buildServer(): ToolServer {
  const server = createToolServer({ name: "agentry-everything-server", version: "1.0.0" });
  server.include(contentTools());
  server.include(sessionTools());
  server.include(statelessTools());
  server.include(headerTools());
  registerListChangeTools(server);
  server.include(resources());
  server.include(prompts());
  server.include(inputRequiredTools());
  server.include(taskTools());

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
