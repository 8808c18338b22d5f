/**
 * The runtime area: named agent processes, their lifecycle, their configuration and the deploy policy.
 *
 * @module
 */

export {
  HISTORY_LIMIT,
  InvalidTransitionError,
  Lifecycle,
  PROCESS_STATES,
  type ProcessState,
  STARTED_STATES,
  type StateTransition,
  type TransitionListener,
  TRANSITIONS,
} from "./lifecycle.ts";
export * from "./errors.ts";
export type * from "./process_parts.ts";
export { AgentProcess, type AgentProcessOptions, type ProcessSummary } from "./process.ts";
export type { ProcessCounters, ProcessStatus } from "./process_status.ts";
export {
  type Invoker,
  type ProcessEvent,
  RunBlockedError,
  RunError,
  type RunRequest,
  type RunResult,
} from "./process_event.ts";
export { Conversation, type ConversationMessage } from "./conversation.ts";
// Budget (issue 13)
export {
  type BudgetEventType,
  type BudgetSnapshot,
  type BudgetStatus,
  BudgetTracker,
  type BudgetTrackerOptions,
} from "./budget/budget_tracker.ts";
export { type BudgetCheck, BudgetRun, type BudgetViolation, refusalMessage } from "./budget/budget_run.ts";
export type { BudgetLimitName, BudgetRemaining, DayUsage, RunUsage } from "./budget/budget_limits.ts";
export {
  applyBudgetAction,
  type BudgetActionHost,
  budgetEscalationPayload,
  processBudget,
} from "./budget/budget_action.ts";
export { recoverBudget } from "./budget/recover_budget.ts";
export {
  ESCALATION_TIMEOUT_MS,
  type EscalationOutcome,
  isPrivateAddress,
  sendEscalation,
  type SendEscalationOptions,
} from "./send_escalation.ts";
// Escalation events (issue 13): escalation.event_type emitted on the runtime's events
export {
  type EscalateFunction,
  escalateVia,
  type EscalationDelivery,
  Escalator,
  type EscalatorOptions,
  type RuntimeEventInput,
  type RuntimeEvents,
} from "./escalator.ts";
export {
  HOOK_BASE_VARIABLES,
  HOOK_QUEUE_LIMIT,
  ProcessHooks,
  type ProcessHooksOptions,
} from "./hooks/process_hooks.ts";
export type * from "./hooks/hook_data.ts";
export {
  type DailyUsage,
  RUN_LOG_CAPACITY,
  RUN_STEP_LIMIT,
  type RunDetail,
  RunLog,
  type RunOutcome,
  type RunProgress,
  type RunRecord,
  type RunReporter,
  type RunStatus,
  type RunStep,
  type RunStepType,
  type TokenUsage,
  type UsageSummary,
} from "./run_log.ts";
export {
  type DeadLetter,
  type DeadLetterReason,
  DeadLetters,
  type DeadLettersOptions,
} from "./dead_letters.ts";
export type { ProcessDeadLetters } from "./process_runs.ts"; // event ledger: dead-letter routes
export { PROCESS_QUEUE_CAPACITY } from "./delivery.ts";
export type { DeliveryStatus } from "./delivery.ts";
export { ProcessRuns, type RunsStatus } from "./process_runs.ts";
export {
  CONTEXT_MAX_BYTES,
  type ContextSettings,
  type ContextSource,
  ContextStore,
  type ContextStoreOptions,
  type ContextView,
} from "./context/context_store.ts";
export {
  CHECKPOINT_ENTRY,
  CONTEXT_UPDATE_ENTRY,
  replayContext,
  sinceLastReset,
} from "./context/recover_context.ts";
export {
  REDACTED,
  SECRET_ACCESS_ENTRY,
  type SecretMetadata,
  type SecretsMetadata,
  SecretStore,
  type SecretStoreOptions,
} from "./secrets/secret_store.ts";
export type { MemoryMatch, MemorySearchOptions, MemoryStore } from "./memory/memory_store.ts";
// Inbox (issue 12).
export { Inbox, type InboxOptions, type InboxRun } from "./inbox/inbox.ts";
export {
  type AskAnswer,
  DEFAULT_ASK_TIMEOUT,
  type InboxItem,
  type InboxStatus,
  MAX_ASK_TIMEOUT,
  MESSAGE_TYPES,
  type MessageInput,
  type MessageType,
  PRIORITIES,
  type Priority,
  QUESTION_GRACE,
  type QuestionInput,
  type QueuedMessage,
} from "./inbox/inbox_types.ts";
export {
  OPERATOR_BLOCK_FOOTER,
  OPERATOR_BLOCK_HEADER,
  operatorBlock,
  orderItems,
} from "./inbox/operator_block.ts";
export { parseAnswers } from "./inbox/answers.ts";
export { type InboxScanMode, inboxScanMode } from "./inbox/inbox_scanner.ts";
export { InMemoryStore } from "./memory/in_memory_store.ts";
export { FileMemoryStore, MEMORY_FILE } from "./memory/file_memory_store.ts";
export { LexicalIndex, termCounts } from "./memory/lexical_index.ts";
export { openMemory, type OpenMemoryOptions } from "./memory/open_memory.ts";
export { AgentRuntime } from "./runtime.ts";
// Runtime events (issue 20): the feed behind GET /api/v1/events
export {
  RUNTIME_EVENT_CAPACITY,
  RUNTIME_EVENT_TYPES,
  type RuntimeEvent,
  type RuntimeEventBase,
  type RuntimeEventDataMap,
  RuntimeEventLog,
  type RuntimeEventReplay,
  type RuntimeEventSubscriber,
  type RuntimeEventType,
} from "./runtime_events.ts";
export {
  type AgentRuntimeOptions,
  DEFAULT_DATA_DIR,
  type DeployOptions,
  type ReconfigureChange,
  type RuntimeStatus,
} from "./runtime_options.ts";
export {
  type DesiredState,
  FileProcessStore,
  type FileProcessStoreOptions, // --fsync (issue 13)
  MemoryProcessStore,
  type ProcessStore,
  type StoredProcess,
} from "./process_store.ts";
export {
  type ProcessSpool,
  Spool,
  type SpoolKind,
  type SpoolLog,
  type SpoolLogOptions,
  type SpoolOptions,
} from "./spool.ts";
export {
  type BudgetAction,
  type BudgetConfig,
  type BudgetConfigInput,
  type CallbackHook,
  type CallbackHookInput,
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
  HOOK_EVENTS,
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
  type Resolved,
  type SecretsConfig,
  type SecretsConfigInput,
  type ServerConfig,
  type ServerConfigInput,
  type ServerKindFields,
  type ServerProtocolVersion,
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
  MANIFEST_SUFFIXES,
  manifestEnvReferences,
  ManifestError,
  PROCESS_NAME_PATTERN,
} from "./manifest.ts";
// Rewind (issue 13).
export {
  CODE_ENTRY_TYPES,
  CONVERSATION_ENTRY_TYPES,
  planRewind,
  REWIND_MODES,
  type RewindMode,
  type RewindPlan,
  type RewoundState,
  stateBefore,
  summaryNote,
} from "./rewind/rewind_plan.ts";
export {
  previewRewind,
  REWIND_ENTRY,
  REWIND_WAIT_MS,
  type RewindOptions,
  rewindProcess,
  type RewindResult,
} from "./rewind/rewind_process.ts";
// --- Health (issue 13) ---
export {
  type Anomaly,
  ANOMALY_HISTORY_LIMIT,
  ANOMALY_TYPES,
  type AnomalyType,
  type HealthHost,
  HealthMonitor,
  type HealthMonitorOptions,
  type HealthRunOutcome,
  type HealthStatus,
  type HealthWatch,
} from "./health/mod.ts";
// --- Mission (issue 13) ---
export {
  EVALUATION_HISTORY_LIMIT,
  JUDGE_SYSTEM_MARKER,
  JudgeAnswerError,
  type JudgeEvidence,
  judgePrompt,
  type JudgeRequest,
  type JudgeVerdict,
  type MissionEvaluation,
  type MissionHost,
  type MissionJudge,
  type MissionOperation,
  type MissionSnapshot,
  type MissionState,
  type MissionStatus,
  MissionTracker,
  type MissionView,
  parseJudgeAnswer,
  parseMissionSnapshot,
  ProcessMission,
  recoverMission,
  requireMission,
} from "./mission/mod.ts";
