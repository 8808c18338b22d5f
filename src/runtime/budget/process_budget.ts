/**
 * ProcessBudget: the budget of one process as the process holds it. The tracker exists while the
 * deployed config has `budget.enabled` (a live patch with `enabled: true` builds it, `enabled: false`
 * removes it); `on_exceeded` is applied after a run with a refusal.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import type { Logger } from "../../log.ts";
import type { GovernedHost } from "../governed_host.ts";
import { applyBudgetAction, processBudget } from "./budget_action.ts";
import type { BudgetViolation } from "./budget_run.ts";
import type { BudgetStatus, BudgetTracker } from "./budget_tracker.ts";

/** A process's budget. */
export class ProcessBudget {
  #process: GovernedHost;
  #logger: Logger;
  #tracker: BudgetTracker | undefined;

  /** The budget of `process` (its suspend and stop carry out `on_exceeded`). */
  constructor(process: GovernedHost, options: { logger: Logger }) {
    this.#process = process;
    this.#logger = options.logger;
  }

  /** The tracker while `budget.enabled`; built on first use, dropped when the budget is switched off. */
  get tracker(): BudgetTracker | undefined {
    const process = this.#process;
    if (!process.config.budget.enabled) return this.#tracker = undefined;
    return this.#tracker ??= processBudget(process.name, {
      config: () => process.config.budget,
      logger: this.#logger,
      journal: process.journal,
    });
  }

  /** The `budget` section of the status body. */
  status(): BudgetStatus | { enabled: false } {
    return this.tracker?.status() ?? { enabled: false };
  }

  /** Applies `on_exceeded` for the run's first refusal (not awaited; failures are logged). */
  exceeded(violation: BudgetViolation): void {
    const process = this.#process;
    const record = (type: string, data: Record<string, unknown>) => void process.journal?.record(type, data);
    const act = async () => {
      const budget = process.resolveReferences(process.config.budget);
      await applyBudgetAction(
        {
          name: process.name,
          processId: process.processId,
          suspend: (reason) => process.suspend(reason).catch(() => undefined), // already paused or stopped
          stop: (reason) => process.stop(reason),
          record,
          escalate: process.escalate,
        },
        budget,
        { violation },
      );
    };
    act().catch((error) => {
      this.#logger.warning("budget action failed", { process: process.name, error: describeError(error) });
    });
  }
}
