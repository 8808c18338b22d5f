/**
 * ProcessConfig: everything a deployed agent process is made of, as written
 * ({@linkcode ProcessConfigInput}) and resolved ({@linkcode ProcessConfig}). Parsing fills every default,
 * so the parse output is the resolved config. Without `journal` the process keeps no journal; without
 * `guardrails` it has no scanner. Durations are seconds unless a field name says otherwise.
 *
 * @module
 */

import type { z } from "zod";
import { boolean, integer, list, modelString, number, oneOf, strictObject, string } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";
import { type BudgetConfig, type BudgetConfigInput, BudgetConfigSchema } from "./budget_config.ts";
import { type ContextConfig, type ContextConfigInput, ContextConfigSchema } from "./context_config.ts";
import {
  type GuardrailsConfig,
  type GuardrailsConfigInput,
  GuardrailsConfigSchema,
} from "./guardrails_config.ts";
import { type HealthConfig, type HealthConfigInput, HealthConfigSchema } from "./health_config.ts";
import { type HookConfig, type HookConfigInput, HookConfigSchema } from "./hooks_config.ts";
import { type InboxConfig, type InboxConfigInput, InboxConfigSchema } from "./inbox_config.ts";
import { type JournalConfig, type JournalConfigInput, JournalConfigSchema } from "./journal_config.ts";
import { type MissionConfig, type MissionConfigInput, MissionConfigSchema } from "./mission_config.ts";
import { type OpenModeConfig, type OpenModeConfigInput, OpenModeConfigSchema } from "./open_mode_config.ts";
import { type SecretsConfig, type SecretsConfigInput, SecretsConfigSchema } from "./secrets_config.ts";
import { type ServerConfig, type ServerConfigInput, ServersConfigSchema } from "./server_config.ts";
import {
  type TriggerDeliveryConfig,
  type TriggerDeliveryConfigInput,
  TriggerDeliveryConfigSchema,
} from "./trigger_delivery_config.ts";
import { type TriggerConfig, type TriggerConfigInput, TriggersConfigSchema } from "./trigger_config.ts";

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
  /**
   * Most model turns in one run (each turn may call tools). When it is reached the run ends with the last
   * assistant text. An integer from 1 to 100.
   * @default 10
   */
  max_steps?: number;
  /**
   * Stream the model's answer: text appears on the run stream (`GET /processes/{name}/runs/events`) as the
   * model writes it. When false each model turn is one request and one answer.
   * @default true
   */
  stream?: boolean;
  /**
   * Seconds one run may take (model turns and tool calls); past it the run is aborted and fails. A number
   * >= 0; 0 means no limit.
   * @default 600
   */
  run_timeout?: number;
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
  /**
   * Most model turns in one run (each turn may call tools). When it is reached the run ends with the last
   * assistant text. An integer from 1 to 100.
   * @default 10
   */
  max_steps: number;
  /**
   * Stream the model's answer: text appears on the run stream (`GET /processes/{name}/runs/events`) as the
   * model writes it. When false each model turn is one request and one answer.
   * @default true
   */
  stream: boolean;
  /**
   * Seconds one run may take (model turns and tool calls); past it the run is aborted and fails. A number
   * >= 0; 0 means no limit.
   * @default 600
   */
  run_timeout: number;
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

/** Model used when a config names none. */
export const DEFAULT_MODEL = "openai:gpt-5-mini";

/** Execution modes: `strict` (fixed agent) or `open` (the agent may change itself). */
export const EXECUTION_MODES = ["strict", "open"] as const satisfies readonly ExecutionMode[];

/** The schema of each top-level field, with its default (`parseSection` parses one field with it). */
export type ProcessConfigShape = {
  readonly [K in ProcessConfigField]: z.ZodType<ProcessConfig[K], ProcessConfigInput[K]>;
};

const shape = {
  model: modelString().default(DEFAULT_MODEL),
  instructions: string().default(""),
  execution_mode: oneOf(EXECUTION_MODES).default("strict"),
  servers: ServersConfigSchema.default(() => ({})),
  triggers: TriggersConfigSchema.default(() => []),
  max_steps: integer({ min: 1, max: 100 }).default(10),
  stream: boolean().default(true),
  run_timeout: number({ min: 0 }).default(600),
  inbox: InboxConfigSchema.prefault(() => ({})),
  budget: BudgetConfigSchema.prefault(() => ({})),
  health: HealthConfigSchema.prefault(() => ({})),
  mission: MissionConfigSchema.prefault(() => ({})),
  journal: JournalConfigSchema.optional(),
  context: ContextConfigSchema.prefault(() => ({})),
  guardrails: GuardrailsConfigSchema.optional(),
  trigger_delivery: TriggerDeliveryConfigSchema.prefault(() => ({})),
  open_mode: OpenModeConfigSchema.prefault(() => ({})),
  hooks: list(HookConfigSchema, "a list of hook objects").default(() => []),
  concurrency: integer({ min: 1, max: 100 }).default(1),
  secrets: SecretsConfigSchema.prefault(() => ({})),
  idle_timeout: number({ min: 0 }).default(0),
};

/** The field schemas of {@linkcode ProcessConfigSchema}, by field name. */
export const PROCESS_CONFIG_SHAPE: ProcessConfigShape = shape;

/** Noun of a process config in issues. */
export const PROCESS_CONFIG_NOUN = "a process config object";

/** A whole process config. Unknown fields are refused at every level; durations are seconds. */
export const ProcessConfigSchema: z.ZodType<ProcessConfig, ProcessConfigInput> = exactly(
  strictObject(shape, { noun: PROCESS_CONFIG_NOUN }),
);
