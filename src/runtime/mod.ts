/**
 * The runtime area: named agent processes, their lifecycle, their configuration and the deploy policy.
 *
 * @module
 */

export * from "./lifecycle.ts";
export * from "./errors.ts";
export type * from "./process_parts.ts";
export { AgentProcess, type AgentProcessOptions, type ProcessSummary } from "./process.ts";
export type { ProcessCounters, ProcessStatus } from "./process_status.ts";
export {
  type Invoker,
  type ProcessEvent,
  RunBlockedError,
  type RunRequest,
  type RunResult,
} from "./process_event.ts";
export { type DeadLetter, type DeadLetterReason, DeadLetters } from "./dead_letters.ts";
export { PROCESS_QUEUE_CAPACITY } from "./delivery.ts";
export type { DeliveryStatus } from "./delivery.ts";
export { ProcessRuns, type RunsStatus } from "./process_runs.ts";
export {
  AgentRuntime,
  type AgentRuntimeOptions,
  DEFAULT_DATA_DIR,
  type DeployOptions,
  type ReconfigureChange,
  type RuntimeStatus,
} from "./runtime.ts";
export {
  type DesiredState,
  FileProcessStore,
  MemoryProcessStore,
  type ProcessStore,
  type StoredProcess,
} from "./process_store.ts";
export {
  type BudgetAction,
  type BudgetConfig,
  type BudgetConfigInput,
  type CallbackHook,
  type CommandHook,
  type CommandHookInput,
  type CommandServerConfig,
  type ConfigIssue,
  type ConfigParseResult,
  type ContextConfig,
  type ContextConfigInput,
  type CronTriggerConfig,
  type CronTriggerConfigInput,
  type DeclarativeGuardrails,
  type DeclarativeGuardrailsInput,
  type EscalationTarget,
  type EventTriggerConfig,
  type EventTriggerConfigInput,
  type ExecutionMode,
  type FileWatchTriggerConfig,
  type FileWatchTriggerConfigInput,
  formatIssueList,
  type GuardrailDetector,
  type GuardrailScanner,
  type GuardrailsConfig,
  type GuardrailsConfigInput,
  type HealthAction,
  type HealthConfig,
  type HealthConfigInput,
  type HookCallback,
  type HookConfig,
  type HookConfigInput,
  type HookContext,
  type HookEvent,
  type HttpServerConfig,
  type HttpTransport,
  type InboxConfig,
  type InboxConfigInput,
  isCommandHook,
  isProgramServer,
  isUnknownFieldIssue,
  type JournalConfig,
  type JournalConfigInput,
  type MemoryProvider,
  type MessageTriggerConfig,
  type MessageTriggerConfigInput,
  type MissionCompleteAction,
  type MissionConfig,
  type MissionConfigInput,
  type OpenModeConfig,
  type OpenModeConfigInput,
  type ParseOptions,
  parseProcessConfig,
  parseSection,
  type ProcessConfig,
  type ProcessConfigField,
  type ProcessConfigInput,
  type SecretsConfig,
  type SecretsConfigInput,
  type ServerConfig,
  type ServerConfigInput,
  type ServerKindFields,
  type ServerTransport,
  serverTransport,
  type ToolCost,
  type ToolCostInput,
  type TriggerConfig,
  type TriggerConfigInput,
  type TriggerDeliveryConfig,
  type TriggerDeliveryConfigInput,
  type TriggerType,
  type WatchEvent,
  type WebhookTriggerConfig,
  type WebhookTriggerConfigInput,
} from "./config/mod.ts";
export {
  checkCommands,
  checkEnvReferences,
  checkPath,
  checkPaths,
  checkTriggerPaths,
  type ConfigPath,
  configPaths,
  type DeployPolicy,
  type EnvCheckOptions,
  type EnvReference,
  type EnvWalkOptions,
  findEnvReferences,
  type PolicyViolation,
  type PolicyViolationCode,
  resolveEnvReferences,
  type TriggerPathOptions,
  UnresolvedEnvReferenceError,
} from "./policy/mod.ts";
export {
  loadManifests,
  type Manifest,
  manifestEnvReferences,
  ManifestError,
  PROCESS_NAME_PATTERN,
} from "./manifest.ts";
