/**
 * ContextConfig: the process's key-value state, conversation history and long-term memory.
 *
 * @module
 */

import type { z } from "zod";
import {
  anyObject,
  boolean,
  integer,
  list,
  nonEmptyString,
  number,
  oneOf,
  type Resolved,
  strictObject,
} from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";

/** Where long-term memory is kept: nowhere, in process memory, or in files. */
export type MemoryProvider = "none" | "in_memory" | "file";

/** The `context` section as written. Every field is optional. */
export interface ContextConfigInput {
  /**
   * State keys the agent and API may write. When absent every key is writable; `[]` makes none writable.
   */
  writable_keys?: string[];
  /**
   * Initial state values by key (a JSON object).
   * @default {}
   */
  initial_state?: Record<string, unknown>;
  /**
   * Keep the conversation across runs. When false each run sees only its trigger.
   * @default true
   */
  conversation_history?: boolean;
  /**
   * Most conversation messages kept (oldest dropped first). An integer >= 0; 0 means unlimited.
   * @default 100
   */
  conversation_max_messages?: number;
  /**
   * Where long-term memory is kept. When absent, `memory_persist_directory` given alone selects "file".
   * @default "none"
   */
  memory_provider?: MemoryProvider;
  /**
   * Directory the "file" memory provider keeps memory in; given alone it selects that provider. Refused
   * with `memory_provider` "none" or "in_memory". For API deploys it must lie inside the runtime's data
   * directory. The "file" provider without it keeps memory in `<data_dir>/memory/<process name>`.
   */
  memory_persist_directory?: string;
  /**
   * Most long-term memories added to the prompt of a run. An integer >= 1.
   * @default 5
   */
  memory_max?: number;
  /**
   * Least relevance score (from 0 to 1) a memory needs to be added to the prompt.
   * @default 0
   */
  memory_min_score?: number;
}

/** The `context` section with defaults filled (`writable_keys`, `memory_persist_directory` have none). */
export type ContextConfig = Resolved<ContextConfigInput, "writable_keys" | "memory_persist_directory">;

/** Long-term memory providers. */
export const MEMORY_PROVIDERS = ["none", "in_memory", "file"] as const;

/** Context settings; every field has a default. */
export const ContextConfigSchema: z.ZodType<ContextConfig, ContextConfigInput> = exactly(
  strictObject({
    writable_keys: list(nonEmptyString("a key name"), "a list of key names").optional(),
    initial_state: anyObject("an object of initial state values").default(() => ({})),
    conversation_history: boolean().default(true),
    conversation_max_messages: integer({ min: 0 }).default(100),
    memory_provider: oneOf(MEMORY_PROVIDERS).optional(),
    memory_persist_directory: nonEmptyString("a directory path").optional(),
    memory_max: integer({ min: 1 }).default(5),
    memory_min_score: number({ min: 0, max: 1 }).default(0),
  }).superRefine((context, ctx) => {
    const provider = context.memory_provider;
    if (context.memory_persist_directory !== undefined && provider !== undefined && provider !== "file") {
      ctx.addIssue({
        code: "custom",
        path: ["memory_persist_directory"],
        message: 'no such field unless memory_provider is "file" (or absent)',
      });
    }
  }).transform(({ memory_provider, ...context }): ContextConfig => ({
    ...context,
    memory_provider: memory_provider ?? (context.memory_persist_directory === undefined ? "none" : "file"),
  })),
);
