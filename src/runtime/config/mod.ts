/**
 * Process config schemas (zod) and their parsing into resolved configs or plain-words issues. This is the
 * config folder's face inside the runtime area: it also exports the zod schemas and zod-typed helpers,
 * which `../mod.ts` does not pass on to the package's public API.
 *
 * @example
 * ```ts
 * import { parseProcessConfig } from "./mod.ts";
 * const result = parseProcessConfig({ triggers: [{ type: "cron", cron_expression: "0 * * * *" }] });
 * if (result.ok) console.log(result.config.inbox.max_messages); // 50
 * ```
 *
 * @module
 */

export {
  BUDGET_ACTIONS,
  type BudgetAction,
  type BudgetConfig,
  type BudgetConfigInput,
  BudgetConfigSchema,
  type ToolCost,
  type ToolCostInput,
  ToolCostSchema,
} from "./budget_config.ts";
export {
  type ContextConfig,
  type ContextConfigInput,
  ContextConfigSchema,
  MEMORY_PROVIDERS,
  type MemoryProvider,
} from "./context_config.ts";
export {
  ENV_REFERENCE_SOURCE,
  ENV_VARIABLE_NAME,
  envReferenceNames,
  envReferencePattern,
  hasEnvReference,
} from "./env_reference.ts";
export {
  escalationField,
  type EscalationTarget,
  EscalationTargetSchema,
  requireEscalation,
} from "./escalation_target.ts";
export { formatPath, joinPath } from "./field_path.ts";
export { type Resolved, strictObject, type StrictObjectOptions } from "./_fields.ts";
export {
  type DeclarativeGuardrails,
  type DeclarativeGuardrailsInput,
  DeclarativeGuardrailsSchema,
  GUARDRAIL_DETECTORS,
  type GuardrailDetector,
  type GuardrailScanner,
  type GuardrailsConfig,
  type GuardrailsConfigInput,
  GuardrailsConfigSchema,
  isGuardrailScanner,
  SCANNER_METHODS,
} from "./guardrails_config.ts";
export {
  HEALTH_ACTIONS,
  type HealthAction,
  type HealthConfig,
  type HealthConfigInput,
  HealthConfigSchema,
} from "./health_config.ts";
export {
  type CallbackHook,
  type CallbackHookInput,
  type CommandHook,
  type CommandHookInput,
  DEFAULT_HOOK_TIMEOUT,
  HOOK_EVENTS,
  type HookCallback,
  type HookConfig,
  type HookConfigInput,
  HookConfigSchema,
  type HookContext,
  type HookEvent,
  isCommandHook,
} from "./hooks_config.ts";
export { type InboxConfig, type InboxConfigInput, InboxConfigSchema } from "./inbox_config.ts";
export {
  type ConfigIssue,
  type ConfigParseResult,
  formatIssueList,
  formatZodIssues,
  isUnknownFieldIssue,
  type ParseOptions,
  parseProcessConfig,
  parseSection,
  parseWith,
  ROOT_FIELD,
} from "./issues.ts";
export {
  type JournalConfig,
  type JournalConfigInput,
  JournalConfigSchema,
  journalEnabled,
} from "./journal_config.ts";
export {
  MISSION_COMPLETE_ACTIONS,
  type MissionCompleteAction,
  type MissionConfig,
  type MissionConfigInput,
  MissionConfigSchema,
} from "./mission_config.ts";
export { type OpenModeConfig, type OpenModeConfigInput, OpenModeConfigSchema } from "./open_mode_config.ts";
export {
  DEFAULT_MODEL,
  EXECUTION_MODES,
  type ExecutionMode,
  PROCESS_CONFIG_NOUN,
  PROCESS_CONFIG_SHAPE,
  type ProcessConfig,
  type ProcessConfigField,
  type ProcessConfigInput,
  ProcessConfigSchema,
  type ProcessConfigShape,
} from "./process_config.ts";
export {
  SECRET_NAME_PATTERN,
  type SecretsConfig,
  type SecretsConfigInput,
  SecretsConfigSchema,
} from "./secrets_config.ts";
export {
  type CommandServerConfig,
  type HttpServerConfig,
  type HttpTransport,
  isProgramServer,
  SERVER_NAME_PATTERN,
  SERVER_PROTOCOL_VERSIONS,
  SERVER_TRANSPORTS,
  type ServerConfig,
  type ServerConfigInput,
  ServerConfigSchema,
  type ServerKindFields,
  type ServerProtocolVersion,
  ServersConfigSchema,
  type ServerTransport,
  serverTransport,
} from "./server_config.ts";
export {
  type CronTriggerConfig,
  type CronTriggerConfigInput,
  CronTriggerSchema,
  type EventTriggerConfig,
  type EventTriggerConfigInput,
  EventTriggerSchema,
  type FileWatchTriggerConfig,
  type FileWatchTriggerConfigInput,
  FileWatchTriggerSchema,
  type MessageTriggerConfig,
  type MessageTriggerConfigInput,
  MessageTriggerSchema,
  TRIGGER_TYPES,
  type TriggerConfig,
  type TriggerConfigInput,
  TriggerConfigSchema,
  TriggersConfigSchema,
  type TriggerType,
  WATCH_EVENTS,
  type WatchEvent,
  type WebhookTriggerConfig,
  type WebhookTriggerConfigInput,
  WebhookTriggerSchema,
} from "./trigger_config.ts";
export {
  type TriggerDeliveryConfig,
  type TriggerDeliveryConfigInput,
  TriggerDeliveryConfigSchema,
} from "./trigger_delivery_config.ts";
