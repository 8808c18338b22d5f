/**
 * The status body shared by `GET /processes/{name}` and `GET /processes/{name}/metrics`.
 *
 * @module
 */

import { epochSeconds } from "../_util/ids.ts";
import type { ProcessState } from "./lifecycle.ts";
import type { ProcessSource } from "./process_parts.ts";
import type { ProcessConfig } from "./config/mod.ts";
import type { ProcessJournal } from "../journal/mod.ts";
import type { RunsStatus } from "./process_runs.ts";
import type { InboxStatus } from "./inbox/inbox_types.ts";
import type { HealthStatus } from "./health/health_monitor.ts";
import type { BudgetStatus } from "./budget/budget_tracker.ts";
import type { MissionStatus } from "./mission/process_mission.ts";

/** Lifecycle counters of one process since it was deployed (or restored). */
export interface ProcessCounters {
  /** Successful starts. */
  starts: number;
  /** Completed stops. */
  stops: number;
  /** Restarts asked for (restart route or `restart()`). */
  restarts: number;
  /** Starts that failed. */
  start_failures: number;
}

/** The status body. Capability parts add their own keys (for example `triggers`). */
export interface ProcessStatus {
  /** Process name. */
  name: string;
  /** Id of this deployment. */
  process_id: string;
  /** Current state. */
  state: ProcessState;
  /** `api`, `manifest` or `library`. */
  source: ProcessSource;
  /** Deploy time, epoch seconds. */
  created_at: number;
  /** Time of the current start, epoch seconds; null when not started. */
  started_at: number | null;
  /** Seconds since the current start; null when not started. */
  uptime_seconds: number | null;
  /** Time of the last activity (start, resume, run), epoch seconds; null before any. */
  last_activity_at: number | null;
  /** Lifecycle counters. */
  counters: ProcessCounters;
  /** Runs and delivery: `invocations` since deploy, `dead_letters` held, and while started the queue
   * (`queue_size`, `queue_capacity`), `workers`, `in_flight`, `runs_succeeded`, `runs_failed`,
   * `consecutive_failures`, `pending_retries`. */
  runs: RunsStatus;
  /** Triggers in the config. */
  trigger_count: number;
  /** Journal settings, or null without a journal. */
  journal: { level: string; backend: string } | null;
  /** Sections of the config that are switched on. */
  features: Record<"inbox" | "budget" | "health" | "mission" | "secrets", boolean>;
  /** Secret scoping: whether it is on, and how many secrets hold a value that has not expired. */
  secrets: { enabled: boolean; active: number };
  /** The inbox: whether it is on, items held (expired ones purged) and unanswered questions among them. */
  inbox: InboxStatus;
  /** Health (issue 13): whether it is on, anomalies held and the newest one. */
  health: HealthStatus;
  /**
   * Budget (issue 13): `{enabled: false}`, or remaining (what the next run starts with), used_today,
   * last_run, last_reset, next_reset, refusals_today, last_violation.
   */
  budget: BudgetStatus | { enabled: false };
  /** Mission (issue 13): whether it is on, its state (null when off) and evaluations held. */
  mission: MissionStatus;
  /** Part statuses. */
  [part: string]: unknown;
}

/** What {@linkcode buildStatus} needs. */
export interface StatusInput {
  /** The process. */
  process: {
    name: string;
    processId: string;
    state: ProcessState;
    source: ProcessSource;
    createdAt: number;
    config: ProcessConfig;
    journal: ProcessJournal | undefined;
    health: { status(): HealthStatus }; // Health (issue 13)
  };
  /** Counters. */
  counters: ProcessCounters;
  /** Current start time in ms, when started. */
  startedAt: number | undefined;
  /** Last activity in ms. */
  lastActivityAt: number | undefined;
  /** Run counters. */
  runs: RunsStatus;
  /** Part statuses by part name. */
  parts: Record<string, Record<string, unknown>>;
  /** Secret scoping and the count of active secrets. */
  secrets: { enabled: boolean; active: number };
  /** Inbox counts. */
  inbox: InboxStatus;
  /** Budget (issue 13). */
  budget: BudgetStatus | { enabled: false };
  /** Mission (issue 13). */
  mission: MissionStatus;
}

/** Builds the status body. */
export function buildStatus(input: StatusInput): ProcessStatus {
  const { process, startedAt, lastActivityAt } = input;
  const config = process.config;
  return {
    ...input.parts,
    name: process.name,
    process_id: process.processId,
    state: process.state,
    source: process.source,
    created_at: process.createdAt,
    started_at: startedAt === undefined ? null : epochSeconds(startedAt),
    uptime_seconds: startedAt === undefined ? null : Math.max(0, Math.round(Date.now() - startedAt) / 1000),
    last_activity_at: lastActivityAt === undefined ? null : epochSeconds(lastActivityAt),
    counters: { ...input.counters },
    runs: input.runs,
    trigger_count: config.triggers.length,
    journal: process.journal ? { level: process.journal.level, backend: process.journal.backend } : null,
    features: {
      inbox: config.inbox.enabled,
      budget: config.budget.enabled,
      health: config.health.enabled,
      mission: config.mission.enabled,
      secrets: config.secrets.enabled,
    },
    secrets: { ...input.secrets },
    inbox: { ...input.inbox },
    health: process.health.status(),
    budget: input.budget,
    mission: input.mission, // Mission (issue 13)
  };
}
