/**
 * Events that wake a process and the seam that runs the agent for one of them.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import type { ProcessJournal } from "../journal/mod.ts";
import type { ProcessConfig } from "./config/mod.ts";
import type { RunReporter, TokenUsage } from "./run_log.ts";
import type { Conversation } from "./conversation.ts";
import type { ContextStore } from "./context/context_store.ts";
import type { SecretStore } from "./secrets/secret_store.ts";
import type { MemoryStore } from "./memory/memory_store.ts";
import type { ProcessHooks } from "./hooks/process_hooks.ts";
import type { Inbox } from "./inbox/inbox.ts";
import type { HealthWatch } from "./health/health_monitor.ts";
import type { BudgetRun } from "./budget/budget_run.ts";
import type { MissionTracker } from "./mission/mission_tracker.ts";

/** An event delivered to a process (a trigger firing, or an injected event). */
export interface ProcessEvent {
  /** Id of the trigger that produced it. */
  trigger_id: string;
  /** Trigger type (`cron`, `webhook`, `file_watch`, `event`, `message`, or a custom type for injected events). */
  trigger_type: string;
  /** Unique id (UUID). */
  event_id: string;
  /** ISO 8601 UTC time it was made. */
  timestamp: string;
  /** What happened. */
  payload: unknown;
  /** Facts about the event. */
  metadata: Record<string, unknown>;
}

/** What an {@linkcode Invoker} receives for one run. */
export interface RunRequest {
  /** Process name. */
  name: string;
  /** Process id. */
  processId: string;
  /** The resolved config of the current start. */
  config: ProcessConfig;
  /** The event being handled. */
  event: ProcessEvent;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
  /** Ordinal of this run in the process (1-based, counting every run since deploy). */
  invocation: number;
  /** The process journal, when it has one. */
  journal: ProcessJournal | undefined;
  /** Logger of the process. */
  logger: Logger;
  /** Aborted when the process stops during the run. */
  signal: AbortSignal;
  /** Context state (kept across runs; the agent writes it with source `agent`). */
  context: ContextStore;
  /** Secrets of the process (values never to be shown: see `SecretStore.redact`). */
  secrets: SecretStore;
  /** Long-term memory, when the config has a memory provider. */
  memory: MemoryStore | undefined;
  /** The conversation kept across runs; the runner adds each run's exchange. */
  conversation: Conversation;
  /** Reports steps, streamed text and token usage to the run log (`GET /processes/{name}/runs`). */
  report: RunReporter;
  /** Hooks of the current start (the runner asks `pre_tool_call` hooks before each tool call). @default none */
  hooks?: ProcessHooks;
  /** The inbox (issue 12), when `inbox.enabled`: the run shows its block and settles it (`Inbox.forRun`). */
  inbox?: Inbox;
  /** Health (issue 13): watches this run's tool calls, when `health.enabled` at run start. @default none */
  health?: HealthWatch;
  /**
   * Budget (issue 13), when `budget.enabled`: the run's checks (`beforeTurn`, `addTokens`,
   * `beforeToolCall`), its remaining budget for the prompt and the counters for the checkpoint.
   */
  budget?: BudgetRun;
  /**
   * Mission (issue 13), when `mission.enabled`: its view for the `[Mission]` prompt block; after a successful
   * run the runner calls `afterRun` with a judge built from its models, and checkpoints `snapshot()`.
   */
  mission?: MissionTracker;
}

/** What a run produced. */
export interface RunResult {
  /** The agent's final reply, when there is one. */
  response?: string;
  /** Tokens the run used (journaled with the result). */
  usage?: TokenUsage;
}

/**
 * Runs the agent for one event. A rejection counts as a failed run (retried per `trigger_delivery`).
 * Until an agent runner is plugged in, the runtime has none and dead-letters events ("no runner").
 */
export type Invoker = (run: RunRequest) => Promise<RunResult | void>;

/**
 * A failed run whose message is safe to show to API clients (it is written in the runtime's words, never a
 * provider's or tool's error text). Other errors appear in the run log as "run failed".
 */
export class RunError extends Error {
  /** An error whose `message` may be shown. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RunError";
  }
}

/**
 * A run refused for a reason that must not count as a failure (guardrails, payload scan). An expected
 * outcome, not a fault: it captures no stack trace (`stack` is the name and message alone), since a
 * refused event (every event, without a runner) would otherwise pay for one.
 */
export class RunBlockedError extends Error {
  /** Dead-letter reason, e.g. `blocked by guardrails`. */
  readonly reason: string;

  /** An error dead-lettered with `reason`. */
  constructor(reason: string, message = reason) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0; // `super` with a string message cannot throw: the limit is always restored
    super(message);
    Error.stackTraceLimit = limit;
    this.name = "RunBlockedError";
    this.reason = reason;
  }
}
