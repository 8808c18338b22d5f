/**
 * Open mode: what an agent deployed with `execution_mode: "open"` may change about itself, within its
 * `open_mode` limits. {@linkcode OpenMode} holds one start's self-changes (instructions, triggers, MCP
 * servers, created tools) and their rollback; {@linkcode withOpenMode} adds the meta-tools to a run's
 * tools; {@linkcode runSandboxed} runs created tools' code in a Worker without permissions.
 *
 * @module
 */

export {
  attachOpenMode,
  MAX_AGENT_SERVERS,
  OpenMode,
  type OpenModeContext,
  openModeOf,
  type OpenModeOptions,
  OpenModeRefusal,
  type RollbackSummary,
  SELF_CHANGE_ENTRY,
} from "./open_mode.ts";
export { META_TOOL_NAMES, withOpenMode } from "./meta_tools.ts";
export {
  MAX_TOOL_CODE_CHARS,
  runSandboxed,
  SANDBOX_TIMEOUT_MS,
  type SandboxOptions,
  type SandboxOutcome,
} from "./tool_sandbox.ts";
