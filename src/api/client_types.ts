/**
 * Answer types of the typed client.
 *
 * @module
 */

import type { ProcessState } from "../runtime/mod.ts";

/** Deploy answer. */
export interface DeployAnswer {
  /** Process name. */
  name: string;
  /** Id of this deployment. */
  process_id: string;
  /** State after the deploy (and start). */
  state: ProcessState;
  /** Deploy time, epoch seconds. */
  created_at: number;
}

/** A journal entry as the API answers it. */
export interface JournalEntryAnswer {
  /** Entry id (a rewind target). */
  entry_id: string;
  /** What happened. */
  entry_type: string;
  /** ISO 8601 UTC time. */
  timestamp: string;
  /** Type-specific data. */
  data: Record<string, unknown>;
}

/** Journal answer. */
export interface JournalAnswer {
  /** Process name. */
  name: string;
  /** The newest entries, oldest first. */
  entries: JournalEntryAnswer[];
  /** Number of entries (absent without a journal). */
  count?: number;
  /** Whether the process has a journal. */
  journal_enabled: boolean;
}

/** A trigger listing entry. */
export interface TriggerListingAnswer {
  /** Stable id (`<type>-<digest>`) or a dynamic trigger's id. */
  id: string;
  /** Trigger type. */
  type: string;
  /** `config` or `dynamic`. */
  source: "config" | "dynamic";
  /** The config with secrets masked. */
  config?: Record<string, unknown>;
  /** Whether it runs now. */
  live: boolean;
}

/** Answer of {@linkcode RuntimeClient.addTrigger}. */
export interface TriggerAddedAnswer {
  /** Process name. */
  name: string;
  /** Always true. */
  trigger_added: true;
  /** Stable id of the new trigger. */
  trigger_id: string;
  /** Its type. */
  trigger_type: string;
  /** Whether it runs already. */
  live: boolean;
  /** `immediate` or `next_start`. */
  effective_from: "immediate" | "next_start";
}

/** Answer of {@linkcode RuntimeClient.removeTrigger}. */
export interface TriggerRemovedAnswer {
  /** Process name. */
  name: string;
  /** Stable id of the removed trigger. */
  trigger_removed: string;
  /** Always true. */
  live: boolean;
  /** `immediate` or `next_start`. */
  effective_from: "immediate" | "next_start";
  /** Set when a deprecated `static_<n>` id was used. */
  warning?: string;
}
