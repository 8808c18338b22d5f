/**
 * reportTransition: what a process does with each of its state transitions (hooks, log, journal).
 *
 * @module
 */

import type { Logger } from "../log.ts";
import type { ProcessJournal } from "../journal/mod.ts";
import type { StateTransition } from "./lifecycle.ts";
import type { ProcessHooks } from "./hooks/process_hooks.ts";

/** Where {@linkcode reportTransition} reports. */
export interface TransitionReport {
  /** Process name. */
  name: string;
  /** Id of the deployment. */
  processId: string;
  /** Hooks of the current start. */
  hooks: ProcessHooks;
  /** Called once the hooks have had the transition, before it is logged. */
  afterHooks: () => void;
  logger: Logger;
  journal: ProcessJournal | undefined;
}

/** Fires the `state_change` hook, calls `afterHooks`, logs the transition and journals it (`state_transition`). */
export function reportTransition(transition: StateTransition, report: TransitionReport): void {
  const { hooks } = report;
  if (hooks.has("state_change")) {
    hooks.emit("state_change", { from: transition.from, to: transition.to, reason: transition.reason });
  }
  report.afterHooks();
  report.logger.info("process state changed", {
    process: report.name,
    from: transition.from,
    to: transition.to,
    reason: transition.reason,
  });
  void report.journal?.record("state_transition", {
    from_state: transition.from,
    to_state: transition.to,
    reason: transition.reason,
    process_id: report.processId,
  });
}
