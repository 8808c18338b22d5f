/**
 * The meta-tool mode's names (`api.tool_mode: meta`): the three tools a meta-mode server lists
 * instead of the plan's tools. A plan in meta mode may not name a tool after one of them.
 *
 * @module
 */

/** The tools a meta-mode server lists, in listing order: search, describe, invoke. */
export const META_TOOL_NAMES: readonly ["search_tools", "describe_tool", "invoke_tool"] = Object.freeze(
  ["search_tools", "describe_tool", "invoke_tool"] as const,
);
