/**
 * `on_exceeded`, applied after a run that had a budget refusal: `pause` suspends the process, `stop`
 * stops it, `escalate` POSTs the violation to `escalation.webhook_url` (see `sendEscalation`) and then
 * suspends. Journaled as `budget_action` (and `budget_escalation` with the webhook's outcome).
 *
 * @module
 */

import type { BudgetConfig } from "../config/mod.ts";
import { sendEscalation, type SendEscalationOptions } from "../send_escalation.ts";
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
    const outcome = await sendEscalation(
      budget.escalation,
      budgetEscalationPayload(host, violation),
      options.escalation,
    );
    host.record("budget_escalation", {
      limit: violation.limit,
      webhook: budget.escalation.webhook_url !== undefined,
      event_type: budget.escalation.event_type ?? null,
      ...outcome,
    });
  }
  await host.suspend(reason);
}
