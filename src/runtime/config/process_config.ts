/**
 * ProcessConfig: everything a deployed agent process is made of. Parsing fills every default, so the
 * parse output is the resolved config. Without `journal` the process keeps no journal; without
 * `guardrails` it has no scanner.
 *
 * @module
 */

import type { z } from "zod";
import { integer, list, modelString, number, oneOf, strictObject, string } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";
import { BudgetConfigSchema } from "./budget_config.ts";
import { ContextConfigSchema } from "./context_config.ts";
import { GuardrailsConfigSchema } from "./guardrails_config.ts";
import { HealthConfigSchema } from "./health_config.ts";
import { HookConfigSchema } from "./hooks_config.ts";
import { InboxConfigSchema } from "./inbox_config.ts";
import { JournalConfigSchema } from "./journal_config.ts";
import { MissionConfigSchema } from "./mission_config.ts";
import { OpenModeConfigSchema } from "./open_mode_config.ts";
import type {
  ExecutionMode,
  ProcessConfig,
  ProcessConfigField,
  ProcessConfigInput,
} from "./process_config_types.ts";
import { SecretsConfigSchema } from "./secrets_config.ts";
import { ServersConfigSchema } from "./server_config.ts";
import { TriggerDeliveryConfigSchema } from "./trigger_delivery_config.ts";
import { TriggersConfigSchema } from "./trigger_config.ts";

export type {
  ExecutionMode,
  ProcessConfig,
  ProcessConfigField,
  ProcessConfigInput,
} from "./process_config_types.ts";

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
