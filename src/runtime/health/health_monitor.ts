/**
 * HealthMonitor: the health watchdog of one process. It reads the process's current `health` config at
 * every check (a live change applies at the next check and keeps what was observed), watches each run
 * (tool calls, then its end), records anomalies with a cooldown per type, and applies `on_anomaly` after
 * the run that produced them. The detectors are described in `detectors.ts`.
 *
 * Journal entries: `health_anomaly` {type, description, details, run_id}, `health_recovered` {run_id,
 * last_anomaly} (the first successful run without an anomaly after one), `health_escalation`
 * {anomaly_type, webhook, sent, status?, error?, event, event_id?, event_error?} (see `EscalationDelivery`). With `enabled` false nothing is watched and the history and
 * cooldowns are dropped; a run begun while disabled is not watched.
 *
 * @module
 */

import type { Logger } from "../../log.ts";
import type { ProcessJournal } from "../../journal/mod.ts";
import type { HealthConfig } from "../config/health_config.ts";
import { RuntimeError } from "../errors.ts";
import {
  type AnomalyType,
  detectEmpty,
  detectErrorRate,
  detectLoop,
  detectStuck,
  type Finding,
  isEmptyReply,
  observeCall,
  type ObservedCall,
} from "./detectors.ts";
import { type EscalateFunction, escalateVia } from "../escalator.ts";

/** Anomalies kept per process (the oldest go first). */
export const ANOMALY_HISTORY_LIMIT = 500;
/** Tool calls of one run and run outcomes kept for the detectors. */
const OBSERVATION_LIMIT = 1000;

/** One recorded anomaly (`GET /processes/{name}/health/anomalies`). */
export interface Anomaly {
  /** `stuck`, `loop`, `empty_response` or `high_error_rate`. */
  type: AnomalyType;
  /** One sentence for operators. */
  description: string;
  /** ISO 8601 UTC time it was detected. */
  timestamp: string;
  /** The run it was detected in. */
  run_id: string;
  /** Facts: tool names and counts (never arguments or replies). */
  details: Record<string, unknown>;
}

/** The `health` key of the status body. */
export interface HealthStatus {
  /** Whether the current config turns health monitoring on. */
  enabled: boolean;
  /** Anomalies held (0 when disabled). */
  anomalies: number;
  /** The newest anomaly, or null. */
  last_anomaly: Anomaly | null;
}

/** How a watched run ended. */
export interface HealthRunOutcome {
  /** `blocked` runs (guardrails, no runner) count for nothing. */
  status: "succeeded" | "failed" | "blocked";
  /** The final reply of a successful run. */
  reply: string | null;
}

/** Watches one run: its tool calls, then its end. */
export interface HealthWatch {
  /** A tool call the model asked for (recorded before it runs, refused or not). */
  toolCall(tool: string, args: Record<string, unknown>): void;
  /** The run ended; applies `on_anomaly` when the run produced an anomaly. */
  end(outcome: HealthRunOutcome): void;
}

/** The process a {@linkcode HealthMonitor} watches (an `AgentProcess` is one). */
export interface HealthHost {
  /** Process name. */
  readonly name: string;
  /** Process id (in escalations). */
  readonly processId: string;
  /** The current config: its `health` section is read at every check. */
  readonly config: { readonly health: HealthConfig };
  /** The process journal. */
  readonly journal?: ProcessJournal | undefined;
  /** Suspends the process (`pause` and `escalate`). */
  suspend(reason: string): Promise<unknown>;
  /** Resolves `${VAR}` references of the escalation target with the process's environment. */
  resolveReferences<T>(value: T): T;
  /**
   * Delivers an escalation (a governed host's shares the process's event bus). @default an `Escalator` of
   * this monitor's own, with no event bus
   */
  readonly escalate?: EscalateFunction;
}

/** Options of {@linkcode HealthMonitor}. */
export interface HealthMonitorOptions {
  /** Logger. */
  logger: Logger;
  /** Clock in ms. @default Date.now */
  now?: () => number;
}

/** The health watchdog of one process. */
export class HealthMonitor {
  #host: HealthHost;
  #options: HealthMonitorOptions;
  #now: () => number;
  #history: Anomaly[] = [];
  #lastAt = new Map<AnomalyType, number>();
  #emptyStreak = 0;
  #outcomes: boolean[] = [];
  #unrecovered: Anomaly | undefined;
  #pending = new Set<Promise<unknown>>();
  #escalate: EscalateFunction;
  #listeners = new Set<(anomaly: Anomaly) => void>();

  /** A monitor for `host`. */
  constructor(host: HealthHost, options: HealthMonitorOptions) {
    this.#host = host;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#escalate = escalateVia(host, { logger: options.logger });
  }

  /** Whether the current config turns health monitoring on. */
  get enabled(): boolean {
    return this.#host.config.health.enabled;
  }

  /** Watches a run, or undefined when health monitoring is off (then the run costs nothing extra). */
  watch(runId: string): HealthWatch | undefined {
    if (!this.#sync()) return undefined;
    const calls: ObservedCall[] = [];
    let found: Anomaly | undefined;
    return {
      toolCall: (tool, args) => {
        const config = this.#host.config.health;
        if (!config.enabled) return;
        calls.push(observeCall(tool, args));
        if (calls.length > OBSERVATION_LIMIT) calls.splice(0, calls.length - OBSERVATION_LIMIT);
        const finding = detectStuck(calls, config.stuck_threshold) ??
          detectLoop(calls, { window: config.loop_window, minRepeats: config.loop_min_repeats });
        if (finding) found = this.#record(finding, runId, config) ?? found;
      },
      end: (outcome) => {
        const config = this.#host.config.health;
        if (!this.#sync()) return;
        for (const finding of this.#runEnd(outcome, config)) {
          found = this.#record(finding, runId, config) ?? found;
        }
        if (found) this.#act(found, config);
        else if (outcome.status === "succeeded") this.#recovered(runId);
      },
    };
  }

  /** Reports each anomaly recorded (runtime events); returns an unsubscribe function. */
  onAnomaly(listener: (anomaly: Anomaly) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Anomalies held, oldest first. Throws a {@linkcode RuntimeError} HEALTH_DISABLED when off. */
  anomalies(): Anomaly[] {
    this.assertEnabled();
    return this.#history.map((anomaly) => ({ ...anomaly, details: { ...anomaly.details } }));
  }

  /**
   * Drops every anomaly and every cooldown (the detectors' windows are kept); resolves how many
   * anomalies were dropped. Throws a {@linkcode RuntimeError} HEALTH_DISABLED when off.
   */
  clear(): number {
    this.assertEnabled();
    const count = this.#history.length;
    this.#history = [];
    this.#lastAt.clear();
    this.#unrecovered = undefined;
    return count;
  }

  /** The `health` key of the status body. */
  status(): HealthStatus {
    const enabled = this.#sync();
    return { enabled, anomalies: this.#history.length, last_anomaly: this.#history.at(-1) ?? null };
  }

  /** Throws a {@linkcode RuntimeError} HEALTH_DISABLED unless the current config turns health on. */
  assertEnabled(): void {
    if (this.#sync()) return;
    const process = this.#host.name;
    throw new RuntimeError("HEALTH_DISABLED", `process ${process} has no health monitoring`, {
      details: { process },
    });
  }

  /** Resolves when escalations under way have settled. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Whether health is on; when off, drops what was kept. */
  #sync(): boolean {
    if (this.#host.config.health.enabled) return true;
    this.#history = [];
    this.#lastAt.clear();
    this.#emptyStreak = 0;
    this.#outcomes = [];
    this.#unrecovered = undefined;
    return false;
  }

  #runEnd(outcome: HealthRunOutcome, config: HealthConfig): Finding[] {
    if (outcome.status === "blocked") return [];
    const findings: Finding[] = [];
    if (outcome.status === "succeeded") {
      this.#emptyStreak = isEmptyReply(outcome.reply, config.empty_max_chars) ? this.#emptyStreak + 1 : 0;
      const empty = detectEmpty(this.#emptyStreak, config.empty_threshold);
      if (empty) findings.push(empty);
    }
    this.#outcomes.push(outcome.status === "failed");
    if (this.#outcomes.length > OBSERVATION_LIMIT) this.#outcomes.shift();
    const rate = detectErrorRate(this.#outcomes, {
      window: config.error_window,
      threshold: config.error_rate_threshold,
    });
    if (rate) findings.push(rate);
    return findings;
  }

  /** Records a finding unless its type is cooling down; returns the anomaly recorded. */
  #record(finding: Finding, runId: string, config: HealthConfig): Anomaly | undefined {
    const now = this.#now();
    const last = this.#lastAt.get(finding.type);
    if (last !== undefined && now - last < config.cooldown * 1000) return undefined;
    this.#lastAt.set(finding.type, now);
    const anomaly: Anomaly = { ...finding, timestamp: new Date(now).toISOString(), run_id: runId };
    this.#history.push(anomaly);
    if (this.#history.length > ANOMALY_HISTORY_LIMIT) this.#history.shift();
    this.#unrecovered = anomaly;
    for (const listener of this.#listeners) {
      try {
        listener({ ...anomaly, details: { ...anomaly.details } });
      } catch {
        // a listener's failure never undoes the record
      }
    }
    const { journal, name: process } = this.#host;
    const logger = this.#options.logger;
    logger.warning("health.anomaly", { process, type: anomaly.type, description: anomaly.description });
    void journal?.record("health_anomaly", {
      type: anomaly.type,
      description: anomaly.description,
      details: anomaly.details,
      run_id: runId,
    });
    return anomaly;
  }

  #recovered(runId: string): void {
    const last = this.#unrecovered;
    if (!last) return;
    this.#unrecovered = undefined;
    const { journal, name: process } = this.#host;
    const logger = this.#options.logger;
    logger.info("health.recovered", { process, last_anomaly: last.type });
    void journal?.record("health_recovered", { run_id: runId, last_anomaly: last.type });
  }

  #act(anomaly: Anomaly, config: HealthConfig): void {
    if (config.on_anomaly === "log") return;
    const { name: process, processId } = this.#host;
    const logger = this.#options.logger;
    if (config.on_anomaly === "escalate" && config.escalation) {
      const payload = {
        type: "health_anomaly",
        process_id: processId,
        process_name: process,
        anomaly_type: anomaly.type,
        description: anomaly.description,
        details: anomaly.details,
        timestamp: anomaly.timestamp,
      };
      const target = this.#host.resolveReferences(config.escalation);
      this.#track(
        this.#escalate(target, payload).then((delivery) =>
          this.#host.journal?.record("health_escalation", { anomaly_type: anomaly.type, ...delivery })
        ),
      );
    }
    this.#track(
      this.#host.suspend(`health anomaly: ${anomaly.type}`).catch((error) => {
        logger.warning("health could not suspend the process", { process, error: String(error) });
      }),
    );
  }

  #track(task: Promise<unknown>): void {
    this.#pending.add(task);
    void task.finally(() => this.#pending.delete(task));
  }
}
