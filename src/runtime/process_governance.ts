/**
 * The governance of one process (issue 13): health monitoring, budget and mission, all acting on one
 * governed host so a suspend or stop they choose is remembered across a restart.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import { Escalator, type RuntimeEvents } from "./escalator.ts";
import { governedHost, type GovernedProcess } from "./governed_host.ts";
import { HealthMonitor } from "./health/health_monitor.ts";
import { ProcessBudget } from "./budget/process_budget.ts";
import { ProcessMission } from "./mission/process_mission.ts";

/** Options for {@linkcode ProcessGovernance}. */
export interface ProcessGovernanceOptions {
  /** Stops the process (serialised with its other operations). */
  stop: (reason: string) => Promise<unknown>;
  /** Told the state governance chose (the runtime stores it). */
  onGovernedState?: (state: "suspended" | "stopped") => void;
  /** Logger. */
  logger: Logger;
  /** Where escalations with `event_type` are emitted. @default none (see `Escalator`) */
  events?: RuntimeEvents;
}

/** Health, budget and mission of a process; each reads the process's current config at every check. */
export class ProcessGovernance {
  /** Anomalies, their cooldowns and what the detectors observed. */
  readonly health: HealthMonitor;
  /** The budget (its tracker exists while `budget.enabled`). */
  readonly budget: ProcessBudget;
  /** The mission (its tracker exists while `mission.enabled`). */
  readonly mission: ProcessMission;

  /** Governance of `process`. */
  constructor(process: GovernedProcess, options: ProcessGovernanceOptions) {
    const logger = options.logger;
    const escalator = new Escalator({ process: process.name, events: options.events, logger });
    const host = governedHost(process, {
      stop: options.stop,
      onGovernedState: options.onGovernedState,
      escalate: (target, payload) => escalator.escalate(target, payload),
    });
    this.health = new HealthMonitor(host, { logger });
    this.budget = new ProcessBudget(host, { logger });
    this.mission = new ProcessMission(host, { logger });
  }
}
