/**
 * The list-mutation hooks of the 2026-07-28 `server-stateless` scenario: `test_trigger_tool_change` and
 * `test_trigger_prompt_change` register a new tool or prompt while the server runs, and the framework sends
 * `notifications/tools/list_changed` / `notifications/prompts/list_changed` to listening clients (2026:
 * `subscriptions/listen` streams that asked for them; 2025: every session). Each call adds one numbered item
 * (`dynamic_tool_1`, `dynamic_prompt_1`, ...), up to {@linkcode DYNAMIC_LIMIT} per kind.
 *
 * @module
 */

import { ToolError, type ToolServer } from "../../src/mcp/mod.ts";

/** How many items each trigger adds at most in one server's life. */
export const DYNAMIC_LIMIT = 100;

/** Registers the two trigger tools on `server` (they need the server itself, not a router). */
export function registerListChangeTools(server: ToolServer): void {
  let tools = 0;
  let prompts = 0;
  const full = (kind: string) =>
    new ToolError("LIMIT_REACHED", `This server already added ${DYNAMIC_LIMIT} dynamic ${kind}s.`);

  server.tool(
    "test_trigger_tool_change",
    { description: "Adds a tool to the list while serving (clients get tools/list_changed)" },
    () => {
      if (tools >= DYNAMIC_LIMIT) throw full("tool");
      const name = `dynamic_tool_${++tools}`;
      server.tool(name, { description: `A tool added while serving (number ${tools})` }, () => `${name} ran`);
      return `Added tool ${name}`;
    },
  );

  server.tool(
    "test_trigger_prompt_change",
    { description: "Adds a prompt to the list while serving (clients get prompts/list_changed)" },
    () => {
      if (prompts >= DYNAMIC_LIMIT) throw full("prompt");
      const name = `dynamic_prompt_${++prompts}`;
      server.prompt(
        name,
        { description: `A prompt added while serving (number ${prompts})` },
        () => `This is ${name}.`,
      );
      return `Added prompt ${name}`;
    },
  );
}
