/**
 * Agentry: a runtime for LLM agents as long-lived services, with a JSON control API.
 *
 * Deploy named agent processes into an {@linkcode AgentRuntime}, then manage them over HTTP with
 * {@linkcode ControlServer} (or in-process with {@linkcode createControlApi}) and the typed client of
 * `@agentry/agentry/client`. Triggers (`./triggers`), the MCP tool-server framework (`./mcp`), mcpcast
 * (`./mcpcast`) and the config types (`./config`) have entry points of their own.
 *
 * @example
 * ```ts
 * import { AgentRuntime, ControlServer } from "@agentry/agentry";
 * import { RuntimeClient } from "@agentry/agentry/client";
 *
 * const runtime = new AgentRuntime({ dataDir: await Deno.makeTempDir() });
 * await using server = new ControlServer(runtime, { port: 0, authToken: "a-long-random-token" });
 * await server.start();
 *
 * await using client = new RuntimeClient({ baseUrl: server.url, token: "a-long-random-token" });
 * await client.deploy("reporter", { instructions: "Summarise the day." }, { start: true });
 * console.log((await client.getProcess("reporter")).state); // "running"
 * await runtime.close();
 * ```
 *
 * @module
 */

// This list is the whole public surface of `@agentry/agentry` (the root entry point). Every name is a
// promise to users: add one only for a concrete use, then `deno task exports` records it in
// scripts/exports.txt, where review sees it. Triggers, the MCP framework, mcpcast and the bare client have
// their own entry points (./triggers, ./mcp, ./mcpcast, ./client) and are published there only.

// Run agent processes in-process: the runtime, one process, and what they report.
export {
  AgentProcess,
  type AgentProcessOptions,
  AgentRuntime,
  type AgentRuntimeOptions,
  type DeadLetter, // event ledger: process.deadLetters
  type DeliveryStatus,
  type DeployOptions,
  type EnvLookup,
  type EscalateFunction, // Escalation events (issue 13)
  type EscalationDelivery,
  type ProcessCounters,
  type ProcessDeadLetters,
  type ProcessSource,
  type ProcessState,
  type ProcessStatus,
  type ProcessSummary,
  type ReconfigureChange,
  type RunsStatus,
  type RuntimeEventInput, // Escalation events (issue 13): AgentRuntimeOptions.events, HealthHost.escalate
  type RuntimeEvents,
  type RuntimeStatus,
  type StateTransition,
} from "./src/runtime/mod.ts";

// Runtime events (issue 20): runtime.eventLog, served as GET /api/v1/events.
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
} from "./src/runtime/mod.ts";

// Errors a caller branches on: one class, told apart by `code`.
export {
  InvalidTransitionError,
  isRuntimeError,
  type ProcessOperation,
  RuntimeError,
  type RuntimeErrorCode,
  type RuntimeErrorDetails,
  type RuntimeErrorOptions,
} from "./src/runtime/mod.ts";

// Where deployments persist, so a restarted runtime brings its processes back, and where queued events,
// dead letters and inbox messages persist (docs/durability.md).
export {
  type DesiredState,
  FileProcessStore,
  MemoryProcessStore,
  type ProcessSpool,
  type ProcessStore,
  Spool,
  type SpoolKind,
  type SpoolLog,
  type SpoolLogOptions,
  type SpoolOptions,
  type StoredProcess,
} from "./src/runtime/mod.ts";

// The seam an agent runner plugs into (what a run is given and returns), and the part seam that
// extends every process of a runtime (the triggers of ./triggers plug in through it).
export {
  type Invoker,
  type PartContext,
  type ProcessEvent,
  type ProcessPart,
  type ProcessPartFactory,
  RunBlockedError,
  RunError,
  type RunRequest,
  type RunResult,
} from "./src/runtime/mod.ts";

// Budget (issue 13): a process's limits on runs, model turns, tokens, tool calls and cost (process.budget,
// RunRequest.budget, the status body's `budget`).
export {
  type BudgetCheck,
  type BudgetEventType,
  type BudgetLimitName,
  type BudgetRemaining,
  BudgetRun,
  type BudgetSnapshot,
  type BudgetStatus,
  BudgetTracker,
  type BudgetTrackerOptions,
  type BudgetViolation,
  type DayUsage,
  type RunUsage,
} from "./src/runtime/mod.ts";

// The agent runner: real models and MCP servers behind that seam (model providers are ./models).
export { type AgentRunner, type AgentRunnerOptions, createAgentRunner } from "./src/agent/mod.ts";

// What a run reports and a process keeps between runs: the run log (GET /runs and its event stream),
// token usage, the conversation.
export {
  Conversation,
  type ConversationMessage,
  type DailyUsage,
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
} from "./src/runtime/mod.ts";

// Hooks: the hooks of a process start (AgentProcess.hooks), the data of each event, a tool call's decision.
export {
  HOOK_BASE_VARIABLES,
  HOOK_QUEUE_LIMIT,
  type HookDecision,
  type HookEventData,
  type MessageReceivedHookData,
  type NotifyEvent,
  ProcessHooks,
  type ProcessHooksOptions,
  type RunEndHookData,
  type RunStartHookData,
  type StateChangeHookData,
  type ToolCallHookData,
  type ToolResultHookData,
} from "./src/runtime/mod.ts";

// What a process holds for its agent: context state, secrets, long-term memory (AgentProcess.context,
// .secrets, .memory), and the memory stores a runner or library user may open itself.
export {
  type ContextSettings,
  type ContextSource,
  ContextStore,
  type ContextStoreOptions,
  type ContextView,
  FileMemoryStore,
  InMemoryStore,
  type MemoryMatch,
  type MemorySearchOptions,
  type MemoryStore,
  type SecretMetadata,
  type SecretsMetadata,
  SecretStore,
  type SecretStoreOptions,
} from "./src/runtime/mod.ts";

// The inbox (issue 12): operator messages and questions (AgentProcess.inbox), the prompt block and answers.
export {
  type AskAnswer,
  Inbox,
  type InboxItem,
  type InboxOptions,
  type InboxRun,
  type InboxStatus,
  type MessageInput,
  type MessageType,
  operatorBlock,
  parseAnswers,
  type Priority,
  type QuestionInput,
  type QueuedMessage,
} from "./src/runtime/mod.ts";

// Health (issue 13): the watchdog of a process (AgentProcess.health) and its anomalies.
export {
  type Anomaly,
  type AnomalyType,
  type HealthHost,
  HealthMonitor,
  type HealthMonitorOptions,
  type HealthRunOutcome,
  type HealthStatus,
  type HealthWatch,
} from "./src/runtime/mod.ts";

// Mission (issue 13): an objective judged by a model every few runs (AgentProcess.mission).
export {
  JUDGE_SYSTEM_MARKER,
  JudgeAnswerError,
  type JudgeEvidence,
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
} from "./src/runtime/mod.ts";

// Process config: the parser and manifests. The config types themselves (docs/config.md) are published
// once, as @agentry/agentry/config.
export {
  type ConfigIssue,
  type ConfigParseResult,
  loadManifests,
  type Manifest,
  ManifestError,
  type ParseOptions,
  parseProcessConfig,
} from "./src/runtime/mod.ts";

// The control API, served over HTTP or called in-process, and its error envelope.
export {
  type ApiBindings,
  ApiError,
  type ControlApi,
  type ControlApiOptions,
  ControlServer,
  createControlApi,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
} from "./src/api/mod.ts";

// The journal: what happened to each process, in memory, JSONL files or SQLite.
export {
  FileJournal,
  type Journal,
  type JournalBackend,
  type JournalEntry,
  type JournalLevel,
  type JournalReadOptions,
  type JournalRedactor,
  MemoryJournal,
  ProcessJournal,
  SqliteJournal,
} from "./src/journal/mod.ts";

// Logging shared by every part (structured lines, redaction, sinks for tests).
export {
  Logger,
  type LoggerOptions,
  type LogLevel,
  type LogRecord,
  type LogSink,
  memorySink,
} from "./src/log.ts";
export { VERSION } from "./src/version.ts";
