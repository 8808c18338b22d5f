/**
 * Types of a whole process config, as written ({@linkcode ProcessConfigInput}) and resolved
 * ({@linkcode ProcessConfig}). Durations are seconds unless a field name says otherwise.
 *
 * @module
 */

import type { BudgetConfig, BudgetConfigInput } from "./budget_config_types.ts";
import type { ContextConfig, ContextConfigInput } from "./context_config.ts";
import type { GuardrailsConfig, GuardrailsConfigInput } from "./guardrails_config.ts";
import type { HealthConfig, HealthConfigInput } from "./health_config_types.ts";
import type { HookConfig, HookConfigInput } from "./hooks_config.ts";
import type { InboxConfig, InboxConfigInput } from "./inbox_config.ts";
import type { JournalConfig, JournalConfigInput } from "./journal_config.ts";
import type { MissionConfig, MissionConfigInput } from "./mission_config_types.ts";
import type { OpenModeConfig, OpenModeConfigInput } from "./open_mode_config.ts";
import type { SecretsConfig, SecretsConfigInput } from "./secrets_config.ts";
import type { ServerConfig, ServerConfigInput } from "./server_config_types.ts";
import type { TriggerConfig } from "./trigger_config_types.ts";
import type { TriggerConfigInput } from "./trigger_config_input_types.ts";
import type { TriggerDeliveryConfig, TriggerDeliveryConfigInput } from "./trigger_delivery_config.ts";

/** How much the agent may change itself: "strict" (nothing) or "open" (within `open_mode`). */
export type ExecutionMode = "strict" | "open";

/**
 * A process config as written (in a deploy body or a manifest). Every field is optional and unknown
 * fields are refused at every level.
 */
export interface ProcessConfigInput {
  /**
   * Model that runs the agent, as "<provider>:<model>".
   * @default "openai:gpt-5-mini"
   */
  model?: string;
  /**
   * The agent's instructions (its system prompt). Never searched for `${VAR}` references.
   * @default ""
   */
  instructions?: string;
  /**
   * "strict": the agent is fixed. "open": it may change its instructions, tools, servers and triggers
   * within the limits of `open_mode`.
   * @default "strict"
   */
  execution_mode?: ExecutionMode;
  /**
   * MCP servers the agent uses, by name (1 to 64 letters, digits, `_` or `-`).
   * @default {}
   */
  servers?: Record<string, ServerConfigInput>;
  /**
   * What wakes the process. At most 100 triggers.
   * @default []
   */
  triggers?: TriggerConfigInput[];
  /** The operator inbox. Defaults: see {@linkcode InboxConfigInput}. */
  inbox?: InboxConfigInput;
  /** Limits on tool calls, turns, runs and cost. Defaults: see {@linkcode BudgetConfigInput}. */
  budget?: BudgetConfigInput;
  /** Anomaly detection. Defaults: see {@linkcode HealthConfigInput}. */
  health?: HealthConfigInput;
  /** An objective judged by a model. Defaults: see {@linkcode MissionConfigInput}. */
  mission?: MissionConfigInput;
  /** The process journal. Without this section the process keeps no journal. */
  journal?: JournalConfigInput;
  /** State, conversation and memory. Defaults: see {@linkcode ContextConfigInput}. */
  context?: ContextConfigInput;
  /** Text scanning for injection, credentials and personal data. Without it nothing is scanned. */
  guardrails?: GuardrailsConfigInput;
  /** Retries and dead letters of trigger events. Defaults: see {@linkcode TriggerDeliveryConfigInput}. */
  trigger_delivery?: TriggerDeliveryConfigInput;
  /** What an open-mode agent may change. Used only when `execution_mode` is "open". */
  open_mode?: OpenModeConfigInput;
  /**
   * Commands or callbacks run on lifecycle events.
   * @default []
   */
  hooks?: HookConfigInput[];
  /**
   * Runs that may happen at the same time. An integer from 1 to 100.
   * @default 1
   */
  concurrency?: number;
  /** Secrets scoped to the process. Defaults: see {@linkcode SecretsConfigInput}. */
  secrets?: SecretsConfigInput;
  /**
   * Seconds without a run after which a started process goes idle (`awaiting`); the next activity wakes
   * it. A number >= 0; 0 never idles.
   * @default 0
   */
  idle_timeout?: number;
}

/** A process config with every default filled, as parsing returns it. */
export interface ProcessConfig {
  /**
   * Model that runs the agent, as "<provider>:<model>".
   * @default "openai:gpt-5-mini"
   */
  model: string;
  /**
   * The agent's instructions (its system prompt). Never searched for `${VAR}` references.
   * @default ""
   */
  instructions: string;
  /**
   * "strict": the agent is fixed. "open": it may change its instructions, tools, servers and triggers
   * within the limits of `open_mode`.
   * @default "strict"
   */
  execution_mode: ExecutionMode;
  /**
   * MCP servers the agent uses, by name (1 to 64 letters, digits, `_` or `-`).
   * @default {}
   */
  servers: Record<string, ServerConfig>;
  /**
   * What wakes the process. At most 100 triggers.
   * @default []
   */
  triggers: TriggerConfig[];
  /** The operator inbox. */
  inbox: InboxConfig;
  /** Limits on tool calls, turns, runs and cost. */
  budget: BudgetConfig;
  /** Anomaly detection. */
  health: HealthConfig;
  /** An objective judged by a model. */
  mission: MissionConfig;
  /** The process journal. Absent when the config has no `journal` section: no journal is kept. */
  journal?: JournalConfig;
  /** State, conversation and memory. */
  context: ContextConfig;
  /** Text scanning for injection, credentials and personal data. Absent: nothing is scanned. */
  guardrails?: GuardrailsConfig;
  /** Retries and dead letters of trigger events. */
  trigger_delivery: TriggerDeliveryConfig;
  /** What an open-mode agent may change. Used only when `execution_mode` is "open". */
  open_mode: OpenModeConfig;
  /**
   * Commands or callbacks run on lifecycle events.
   * @default []
   */
  hooks: HookConfig[];
  /**
   * Runs that may happen at the same time. An integer from 1 to 100.
   * @default 1
   */
  concurrency: number;
  /** Secrets scoped to the process. */
  secrets: SecretsConfig;
  /**
   * Seconds without a run after which a started process goes idle (`awaiting`); the next activity wakes
   * it. A number >= 0; 0 never idles.
   * @default 0
   */
  idle_timeout: number;
}

/** Names of the top-level config fields (`budget`, `triggers`, ...). */
export type ProcessConfigField = keyof ProcessConfig;
