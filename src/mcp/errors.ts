/**
 * Tool errors: what a tool client sees when a call fails. The definitions live in
 * `src/tool_error.ts` so code that only raises tool errors (the mcpcast runtime and its emitter)
 * does not load the MCP SDK; this module is the tool-server framework's name for them.
 *
 * @module
 */

export * from "../tool_error.ts";
