/**
 * Names every MCP bench server shares; no imports, so the fastmcp server (with its own config) can use it.
 *
 * @module
 */

/** Path of the streamable HTTP endpoint on every variant. */
export const MCP_PATH = "/mcp";
/** The benchmarked tool. */
export const TOOL_NAME = "echo";
