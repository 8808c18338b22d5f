/**
 * ProcessBudget: the budget of one process as the process holds it. The tracker exists while the
 * deployed config has `budget.enabled` (a live patch with `enabled: true` builds it, `enabled: false`
 * removes it); `on_exceeded` is applied after a run with a refusal.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import type { Logger } from "../../log.ts";
import type { ProcessJournal } from "../../journal/mod.ts";
import type { ProcessConfig } from "../config/mod.ts";
import { applyBudgetAction, processBudget } from "./budget_action.ts";
import type { BudgetViolation } from "./budget_run.ts";
import type { BudgetStatus, BudgetTracker } from "./budget_tracker.ts";

/** What {@linkcode ProcessBudget} needs from its process. */
export interface BudgetProcess {
  /** Process name. */
  readonly name: string;
  /** Process id. */
  readonly processId: string;
  /** The config as deployed (live patches included). */
  readonly config: ProcessConfig;
  /** The process journal. */
  readonly journal: ProcessJournal | undefined;
  /** Resolves `${VAR}` references (the escalation webhook). */
  resolveReferences<T>(value: T): T;
  /** Suspends the process; rejects when it is not running or awaiting. */
  suspend(reason: string): Promise<unknown>;
}

/** A process's budget. */
export class ProcessBudget {
  #process: BudgetProcess;
  #logger: Logger;
  #stop: (reason: string) => Promise<unknown>;
  #tracker: BudgetTracker | undefined;

  /** The budget of `process`; `stop` stops it with a reason (for `on_exceeded: "stop"`). */
  constructor(
    process: BudgetProcess,
    options: { logger: Logger; stop: (reason: string) => Promise<unknown> },
  ) {
    this.#process = process;
    this.#logger = options.logger;
    this.#stop = options.stop;
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
          stop: this.#stop,
          record,
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
