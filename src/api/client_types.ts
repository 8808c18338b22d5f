/**
 * Answer types of the typed client. Shapes the runtime already has are reused from it; each one is
 * proven equal to the schema the API declares for it in the OpenAPI document (see `schemas.ts`).
 *
 * @module
 */

import type { JournalEntry } from "../journal/mod.ts";
import type { ContextView, InboxItem, ProcessStatus, RunRecord, SecretsMetadata } from "../runtime/mod.ts";
import type { TriggerChange, TriggerListing } from "../triggers/mod.ts";

/** Deploy answer: the process's name, id, state after the deploy (and start) and deploy time. */
export type DeployAnswer = Pick<ProcessStatus, "name" | "process_id" | "state" | "created_at">;

/** A journal entry as the API answers it (without the process name, which the answer holds once). */
export type JournalEntryAnswer = Omit<JournalEntry, "process">;

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
export type TriggerListingAnswer = TriggerListing;

/** Answer of {@linkcode RuntimeClient.addTrigger}. */
export interface TriggerAddedAnswer extends TriggerChange {
  /** Process name. */
  name: string;
  /** Always true. */
  trigger_added: true;
  /** Stable id of the new trigger. */
  trigger_id: string;
  /** Its type. */
  trigger_type: string;
}

/** Answer of {@linkcode RuntimeClient.removeTrigger}. */
export interface TriggerRemovedAnswer extends TriggerChange {
  /** Process name. */
  name: string;
  /** Stable id of the removed trigger. */
  trigger_removed: string;
  /** Set when a deprecated `static_<n>` id was used. */
  warning?: string;
}

/** `GET /processes/{name}/runs`: the newest runs first. */
export interface RunListAnswer {
  /** Process name. */
  name: string;
  /** Runs, newest first. */
  runs: RunRecord[];
  /** Number of runs answered. */
  count: number;
}

/** `PATCH /processes/{name}/instructions`. */
export interface InstructionsAnswer {
  /** Process name. */
  name: string;
  /** Always true. */
  instructions_updated: true;
  /** Always true: the change is applied at once (to the next run, or the next start). */
  live: true;
  /** `next_invocation` for a started process, `next_start` otherwise. */
  effective_from: "next_invocation" | "next_start";
}

/** `POST /processes/{name}/rollback` (open mode, issue 12): what the rollback undid. */
export interface RollbackAnswer {
  /** Process name. */
  name: string;
  /** Always true. */
  rolled_back: true;
  /** Whether the agent's instructions were replaced by those before its first change. */
  instructions_restored: boolean;
  /** Ids of the triggers the agent had added, now stopped. */
  triggers_removed: string[];
  /** Names of the MCP servers the agent had connected, now closed. */
  servers_disconnected: string[];
  /** Names of the tools the agent had created, now dropped. */
  tools_dropped: string[];
}

/** Answer of {@linkcode RuntimeClient.getContext} and {@linkcode RuntimeClient.updateContext}. */
export interface ContextAnswer extends ContextView {
  /** Process name. */
  name: string;
}

/** Answer of {@linkcode RuntimeClient.listSecrets}: metadata only, never values. */
export type SecretsListAnswer = SecretsMetadata;

/** Answer of {@linkcode RuntimeClient.rotateSecret}. */
export interface SecretRotatedAnswer {
  /** Process name. */
  name: string;
  /** The rotated secret. */
  secret_name: string;
  /** Always true. */
  rotated: true;
  /** When the new value expires, epoch seconds; null without a ttl. */
  expires_at: number | null;
}

/** Answer of {@linkcode RuntimeClient.revokeSecrets}. */
export interface SecretsRevokedAnswer {
  /** Process name. */
  name: string;
  /** Always true. */
  secrets_revoked: true;
}

/** Answer of {@linkcode RuntimeClient.clearAnomalies} (issue 13). */
export interface AnomaliesClearedAnswer {
  /** Process name. */
  name: string;
  /** Anomalies dropped (their cooldowns are dropped too). */
  anomalies_cleared: number;
}

/** Answer of {@linkcode RuntimeClient.getInbox} (issue 12). Without an inbox: `enabled` false, zero counts. */
export interface InboxAnswer {
  /** Process name. */
  name: string;
  /** Whether the process has an inbox. */
  enabled: boolean;
  /** Items held (messages and questions). */
  count: number;
  /** Messages other than questions. */
  pending_messages: number;
  /** Unanswered questions. */
  pending_questions: number;
  /** The items in prompt order (priority, then oldest first); secret values replaced by `[REDACTED]`. */
  messages: InboxItem[];
}

/** Runtime types the client's answers use, re-exported for client users. */
export type {
  Anomaly,
  AskAnswer,
  ContextView,
  DeadLetter,
  InboxItem,
  MessageType,
  Priority,
  ProcessConfigInput,
  ProcessState,
  ProcessStatus,
  ProcessSummary,
  QueuedMessage,
  RewindMode,
  RewindPlan,
  RewindResult,
  RunDetail,
  RunProgress,
  RunRecord,
  RunStatus,
  RunStep,
  RunStepType,
  RuntimeEvent,
  RuntimeEventBase,
  RuntimeEventDataMap,
  RuntimeEventType,
  RuntimeStatus,
  SecretMetadata,
  SecretsMetadata,
  TokenUsage,
  TriggerConfigInput,
  UsageSummary,
} from "../runtime/mod.ts";
