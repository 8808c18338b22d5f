/**
 * The agent area: what turns a process's event into a run. The runner ({@linkcode createAgentRunner})
 * plugs into `AgentRuntime` as a part (model client, MCP connections, payload scanner per start) and an
 * invoker (one run: prompt assembly, the model's tool loop, built-in tools, journal and run log).
 *
 * @module
 */

export { type AgentRunner, type AgentRunnerOptions, createAgentRunner } from "./agent_runner.ts";
export { buildPrompt, type PromptMemory, type PromptParts } from "./prompt.ts";
export {
  renderPayload,
  triggerMessage,
  type TriggerMessageOptions,
  UNTRUSTED_TAG,
} from "./trigger_message.ts";
export {
  type LoopObserver,
  type LoopResult,
  runToolLoop,
  type ToolBox,
  type ToolLoopOptions,
} from "./tool_loop.ts";
export { BUILTIN_TOOL_NAMES } from "./builtin_tools.ts";
export { TOOL_RESULT_JOURNAL_CHARS } from "./run_agent.ts";
export * from "./mcp/mod.ts";
// Open mode (issue 12).
export {
  MAX_AGENT_SERVERS,
  MAX_TOOL_CODE_CHARS,
  META_TOOL_NAMES,
  OpenMode,
  openModeOf,
  OpenModeRefusal,
  type RollbackSummary,
  runSandboxed,
  SANDBOX_TIMEOUT_MS,
  type SandboxOptions,
  type SandboxOutcome,
  SELF_CHANGE_ENTRY,
} from "./open_mode/mod.ts";
