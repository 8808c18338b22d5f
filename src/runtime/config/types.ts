/**
 * The process config types, published as `@agentry/agentry/config`: what a deploy's `config`, a manifest
 * and each section accept (the `*Input` types, documented field by field in docs/config.md) and the
 * resolved forms `parseProcessConfig` (from `@agentry/agentry`) returns, with every default filled
 * (`Resolved<…Input>`).
 *
 * @example
 * ```ts
 * import type { ProcessConfigInput } from "@agentry/agentry/config";
 *
 * const config: ProcessConfigInput = {
 *   instructions: "Summarise the day.",
 *   triggers: [{ type: "cron", cron_expression: "0 18 * * *" }],
 *   journal: { backend: "file" },
 * };
 * console.log(config.instructions);
 * ```
 *
 * @module
 */

export type {
  BudgetAction,
  BudgetConfig,
  BudgetConfigInput,
  CallbackHook,
  CallbackHookInput,
  CommandHook,
  CommandHookInput,
  CommandServerConfig,
  ContextConfig,
  ContextConfigInput,
  CronTriggerConfig,
  CronTriggerConfigInput,
  DeclarativeGuardrails,
  DeclarativeGuardrailsInput,
  EscalationTarget,
  EventTriggerConfig,
  EventTriggerConfigInput,
  ExecutionMode,
  FileWatchTriggerConfig,
  FileWatchTriggerConfigInput,
  GuardrailDetector,
  GuardrailScanner,
  GuardrailsConfig,
  GuardrailsConfigInput,
  HealthAction,
  HealthConfig,
  HealthConfigInput,
  HookCallback,
  HookConfig,
  HookConfigInput,
  HookContext,
  HookEvent,
  HttpServerConfig,
  HttpTransport,
  InboxConfig,
  InboxConfigInput,
  JournalConfig,
  JournalConfigInput,
  MemoryProvider,
  MessageTriggerConfig,
  MessageTriggerConfigInput,
  MissionCompleteAction,
  MissionConfig,
  MissionConfigInput,
  OpenModeConfig,
  OpenModeConfigInput,
  ProcessConfig,
  ProcessConfigField,
  ProcessConfigInput,
  Resolved,
  SecretsConfig,
  SecretsConfigInput,
  ServerConfig,
  ServerConfigInput,
  ServerKindFields,
  ServerProtocolVersion,
  ServerTransport,
  ToolCost,
  ToolCostInput,
  TriggerConfig,
  TriggerConfigInput,
  TriggerDeliveryConfig,
  TriggerDeliveryConfigInput,
  TriggerType,
  WatchEvent,
  WebhookTriggerConfig,
  WebhookTriggerConfigInput,
} from "./mod.ts";
