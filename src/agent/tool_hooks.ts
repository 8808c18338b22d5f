/**
 * The `pre_tool_call` and `post_tool_call` hooks around a run's tool box: a refused call never reaches the
 * tool, and the model gets a tool error saying why.
 *
 * @module
 */

import type { ProcessHooks } from "../runtime/mod.ts";
import type { ToolOutcome } from "./mcp/mod.ts";
import type { ToolBox } from "./tool_loop.ts";

/** Characters of a tool result passed to `post_tool_call` hooks. */
export const HOOK_RESULT_CHARS = 2000;

/** Options of {@linkcode withToolHooks}. */
export interface ToolHooksOptions {
  /** Id of the run (in every payload). */
  runId: string;
  /** Redacts the refusal reason before the model sees it (the process's secret store). */
  redact: (text: string) => string;
}

/**
 * `box` with its calls checked by the `pre_tool_call` hooks and reported to the `post_tool_call` hooks.
 * Without such hooks (or without `hooks`), `box` itself.
 */
export function withToolHooks(
  box: ToolBox,
  hooks: ProcessHooks | undefined,
  options: ToolHooksOptions,
): ToolBox {
  if (!hooks) return box;
  const before = hooks.has("pre_tool_call");
  const after = hooks.has("post_tool_call");
  if (!before && !after) return box;
  const { runId, redact } = options;
  return {
    specs: () => box.specs(),
    async call(name, args, signal) {
      let outcome: ToolOutcome | undefined;
      if (before) {
        const decision = await hooks.beforeToolCall({ run_id: runId, tool: name, arguments: args });
        if (!decision.allow) {
          outcome = { content: `The call was refused by a hook: ${redact(decision.reason)}`, isError: true };
        }
      }
      outcome ??= await box.call(name, args, signal);
      if (after) {
        hooks.emit("post_tool_call", {
          run_id: runId,
          tool: name,
          arguments: args,
          result: outcome.content.slice(0, HOOK_RESULT_CHARS),
          is_error: outcome.isError,
        });
      }
      return outcome;
    },
  };
}
