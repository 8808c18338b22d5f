/**
 * `on_exceeded`, applied after a run that had a budget refusal: `pause` suspends the process, `stop`
 * stops it, `escalate` delivers the violation to `escalation` (emitted as `event_type`, POSTed to
 * `webhook_url`; see `Escalator`) and then suspends. Journaled as `budget_action` (and `budget_escalation`
 * with the delivery: {limit, event_type, webhook, sent, status?, error?, event, event_id?, event_error?}).
 *
 * @module
 */

import type { BudgetConfig } from "../config/mod.ts";
import type { SendEscalationOptions } from "../send_escalation.ts";
import { type EscalateFunction, escalateVia } from "../escalator.ts";
import type { BudgetViolation } from "./budget_run.ts";
import { BudgetTracker } from "./budget_tracker.ts";
import type { Logger } from "../../log.ts";
import type { ProcessJournal } from "../../journal/mod.ts";

/** A process's budget whose warnings and refusals are logged and journaled (`budget_warning`, `budget_exceeded`). */
export function processBudget(
  process: string,
  options: { config: () => BudgetConfig; logger: Logger; journal: ProcessJournal | undefined },
): BudgetTracker {
  const { logger, journal } = options;
  return new BudgetTracker({
    config: options.config,
    onEvent: (type, data) => {
      logger.warning(type === "budget_warning" ? "budget at 80 %" : "budget limit reached", {
        process,
        ...data,
      });
      void journal?.record(type, data);
    },
  });
}

/** What {@linkcode applyBudgetAction} needs from the process. */
export interface BudgetActionHost {
  /** Process name. */
  name: string;
  /** Process id. */
  processId: string;
  /** Suspends the process (a process not running or awaiting stays as it is). */
  suspend(reason: string): Promise<unknown>;
  /** Stops the process. */
  stop(reason: string): Promise<unknown>;
  /** Writes a journal entry. */
  record(type: string, data: Record<string, unknown>): void;
  /**
   * Delivers the escalation (a governed host's shares the process's event bus). @default an `Escalator`
   * with no event bus (and `options.escalation` for the webhook)
   */
  escalate?: EscalateFunction;
}

/** The escalation body: `{type: "budget_violation", process_id, process_name, violation, at}`. */
export function budgetEscalationPayload(
  host: Pick<BudgetActionHost, "name" | "processId">,
  violation: BudgetViolation,
): Record<string, unknown> {
  return {
    type: "budget_violation",
    process_id: host.processId,
    process_name: host.name,
    violation: {
      limit_name: violation.limit,
      limit_value: violation.limit_value,
      current_value: violation.current_value,
      tool_name: violation.tool,
    },
    at: violation.at,
  };
}

/** Applies `budget.on_exceeded` for `violation` (the run's first refusal). */
export async function applyBudgetAction(
  host: BudgetActionHost,
  budget: BudgetConfig,
  options: { violation: BudgetViolation; escalation?: SendEscalationOptions },
): Promise<void> {
  const { violation } = options;
  const action = budget.on_exceeded;
  const reason = `budget exceeded: ${violation.limit}`;
  host.record("budget_action", { action, limit: violation.limit, reason });
  if (action === "stop") {
    await host.stop(reason);
    return;
  }
  if (action === "escalate" && budget.escalation) {
    const escalate = escalateVia(host, { send: options.escalation });
    const delivery = await escalate(budget.escalation, budgetEscalationPayload(host, violation));
    host.record("budget_escalation", {
      limit: violation.limit,
      event_type: budget.escalation.event_type ?? null,
      ...delivery,
    });
  }
  await host.suspend(reason);
}
