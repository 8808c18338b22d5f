/**
 * The runs of one process: delivery (queue and workers) per start, the invoker call around each run
 * (counting, journaling), and the event ledger: accepted events and dead letters, kept across starts and,
 * with a file spool, across runtime restarts (see {@linkcode EventLedger}).
 *
 * @module
 */

import { describeError } from "../_util/errors.ts";
import type { Logger } from "../log.ts";
import type { ProcessJournal } from "../journal/mod.ts";
import type { ProcessConfig } from "./config/mod.ts";
import type { DeadLetter, DeadLetters } from "./dead_letters.ts";
import { EventLedger, type LedgerChange } from "./event_ledger.ts";
import { Delivery, type DeliveryStatus } from "./delivery.ts";
import {
  type Invoker,
  type ProcessEvent,
  RunBlockedError,
  RunError,
  type RunRequest,
  type RunResult,
} from "./process_event.ts";
import type { Conversation } from "./conversation.ts";
import { RunLog, type RunRecord, type UsageSummary } from "./run_log.ts";
import type { ProcessHooks } from "./hooks/process_hooks.ts";
import type { RunStartHookData } from "./hooks/hook_data.ts";
import type { HealthMonitor } from "./health/health_monitor.ts";
import type { BudgetTracker } from "./budget/budget_tracker.ts";
import type { BudgetRun, BudgetViolation } from "./budget/budget_run.ts";
import type { MissionTracker } from "./mission/mission_tracker.ts";
import type { ProcessSpool } from "./spool.ts";

/** Longest stored reply and error text in journal entries. */
const REPLY_CHARS = 2000;
const ERROR_CHARS = 1000;

/** What runs need from the process. */
export interface RunsHost {
  /** Process name. */
  name: string;
  /** Process id. */
  processId: string;
  /** Logger. */
  logger: Logger;
  /** Journal. */
  journal: ProcessJournal | undefined;
  /** The conversation kept across runs. */
  conversation: Conversation;
  /** Context, secrets, memory, hooks and the inbox as they are when a run begins. */
  stores(): Pick<RunRequest, "context" | "secrets" | "memory" | "hooks" | "inbox"> & {
    health?: HealthMonitor;
  };
  /** The resolved config the next run uses (live changes such as new instructions included). */
  runConfig(): ProcessConfig;
  /** Resolves when runs may happen (running, or awaiting woken); rejects when `signal` aborts. */
  runnable(signal: AbortSignal): Promise<void>;
  /** Moves the process to failed, not awaited. */
  fail(reason: string): void;
  /** A run begins (activity: wakes an awaiting process, holds the idle clock). */
  runStarted(): void;
  /** A run ended (restarts the idle clock when nothing else runs). */
  runEnded(): void;
  /** Budget (issue 13): the process's budget, when `budget.enabled`. @default none */
  budget?(): BudgetTracker | undefined;
  /** Budget (issue 13): a run had a budget refusal; `on_exceeded` applies (not awaited). */
  budgetExceeded?(violation: BudgetViolation): void;
  /** Mission (issue 13): the process's mission, when `mission.enabled`. @default none */
  mission?(): MissionTracker | undefined;
}

/** Counters of runs since deploy, with the delivery counters of the current start. */
export interface RunsStatus extends Partial<DeliveryStatus> {
  /** Runs begun since deploy. */
  invocations: number;
  /** Dead letters held. */
  dead_letters: number;
  /** Tokens and runs today (UTC) and since deploy. */
  usage: UsageSummary;
}

/** The dead letters of a process as operators see them (the control API's dead-letter routes). */
export interface ProcessDeadLetters {
  /** Letters held, oldest first (newest `trigger_delivery.dead_letter_size` kept). */
  list(): DeadLetter[];
  /** Letters held. */
  readonly size: number;
  /** Letters added since the process was deployed or recovered in this runtime (dropped ones included). */
  readonly total: number;
  /**
   * Accepts the events of these letters (all without ids) again and queues them, oldest first; resolves
   * with how many were queued once they are written. A process that is not started takes none (0).
   */
  redeliver(eventIds?: readonly string[]): Promise<number>;
  /** Removes every letter (from the `events` log too); resolves with how many there were. */
  clear(): Promise<number>;
}

/** Runs of one process. */
export class ProcessRuns {
  /** Recent runs, usage and the progress feed, kept across starts. */
  readonly log: RunLog = new RunLog();
  #host: RunsHost;
  #invoker: Invoker | undefined;
  #delivery: Delivery | undefined;
  #ledger = new EventLedger(100);
  #invocations = 0;
  #warnedNoRunner = false;

  /** Runs for `host`, calling `invoker` (none: events are dead-lettered as "no runner"). */
  constructor(host: RunsHost, invoker: Invoker | undefined) {
    this.#host = host;
    this.#invoker = invoker;
    const ring = () => this.#ledger.deadLetters;
    this.letters = {
      list: () => ring().list(),
      get size() {
        return ring().size;
      },
      get total() {
        return ring().total;
      },
      redeliver: (eventIds) => this.redeliver(eventIds),
      clear: () => this.#ledger.clear(),
    };
  }

  /** Events given up (the ledger's ring), kept across starts and, with a file spool, restarts. */
  get deadLetters(): DeadLetters {
    return this.#ledger.deadLetters;
  }

  /** The dead letters for operators: list, redeliver, clear. */
  readonly letters: ProcessDeadLetters;

  /** Reports new accepted events and dead letters (runtime events); returns an unsubscribe function. */
  onLedger(listener: (change: LedgerChange) => void): () => void {
    return this.#ledger.subscribe(listener);
  }

  /** At deploy: opens the `events` log of the spool (accepted events and dead letters). */
  async openSpool(spool: ProcessSpool): Promise<void> {
    await this.#ledger.open(spool, this.#host.runConfig().trigger_delivery.dead_letter_size);
  }

  /**
   * Starts delivery for a start with this resolved config. Events a crash left open come first: those
   * not begun (or waiting for a retry) are queued again in acceptance order, those whose run was in
   * flight are dead-lettered `interrupted`.
   */
  begin(config: ProcessConfig): void {
    this.#ledger.resize(config.trigger_delivery.dead_letter_size);
    const host = this.#host;
    this.#delivery = new Delivery({
      runnable: (signal) => host.runnable(signal),
      run: (event, attempt, signal) => this.#run(event, attempt, signal),
      fail: (reason) => host.fail(reason),
      warn: (message, fields) => host.logger.warning(message, { process: host.name, ...fields }),
    }, { settings: config.trigger_delivery, workers: config.concurrency, ledger: this.#ledger });
    const { queued, interrupted } = this.#ledger.recover();
    for (const item of queued) this.#delivery.requeue(item.event, item.attempt);
    if (queued.length + interrupted > 0) {
      host.logger.info("events recovered", { process: host.name, queued: queued.length, interrupted });
    }
    this.#delivery.start();
  }

  /**
   * Stops delivery: the runs in flight end, and every accepted event not run (queued, waiting for a
   * retry, held by a trigger) is dead-lettered with `reason`. Resolves once the letters are written.
   */
  async end(reason: "process stopped" | "process failed"): Promise<void> {
    const delivery = this.#delivery;
    this.#delivery = undefined;
    if (!delivery) return;
    await delivery.stop(reason);
    await this.#ledger.abandon(reason).catch((error) => {
      this.#host.logger.warning("dead letters not written", {
        process: this.#host.name,
        error: describeError(error),
      });
    });
  }

  /** Records an accepted event (idempotent by `event_id`); resolves once written, rejects when it is not. */
  accept(event: ProcessEvent): Promise<void> {
    return this.#ledger.accept(event);
  }

  /**
   * Records the event (unless already accepted) and queues it, waiting for room. Rejects when the process
   * is not started; an event accepted and then refused is dead-lettered when the process stops.
   */
  async deliver(event: ProcessEvent, signal?: AbortSignal): Promise<void> {
    if (!this.#delivery) throw new Error(`process ${this.#host.name} is not started`);
    await this.#ledger.accept(event);
    const delivery = this.#delivery;
    if (!delivery) {
      await this.#ledger.deadLetter({ event, reason: "process stopped", error: null, attempts: 0 });
      throw new Error(`process ${this.#host.name} is not started`);
    }
    await delivery.deliver(event, signal);
  }

  /**
   * Records the event (the write is not awaited) and queues it without waiting; false when it was
   * dead-lettered (queue full, or the process is not started).
   */
  inject(event: ProcessEvent): boolean {
    if (!this.#delivery) {
      this.#noteWrite(
        this.#ledger.deadLetter({ event, reason: "process stopped", error: null, attempts: 0 }),
      );
      return false;
    }
    this.#noteWrite(this.#ledger.accept(event));
    return this.#delivery.offer(event);
  }

  /**
   * Accepts dead letters (all, or these event ids) again and queues them; resolves with how many went
   * back once written. A process that is not started takes none back (its letters stay).
   */
  async redeliver(eventIds?: readonly string[]): Promise<number> {
    const delivery = this.#delivery;
    if (!delivery) return 0;
    const { events, written } = this.#ledger.redeliver(eventIds);
    await written;
    let count = 0;
    for (const event of events) if (delivery.offer(event)) count++;
    return count;
  }

  /** Counters. */
  status(): RunsStatus {
    return {
      invocations: this.#invocations,
      ...this.#delivery?.status(),
      dead_letters: this.deadLetters.size,
      usage: this.log.usage(),
    };
  }

  #noteWrite(written: Promise<void>): void {
    written.catch((error) => {
      this.#host.logger.warning("event ledger write failed", {
        process: this.#host.name,
        error: describeError(error),
      });
    });
  }

  async #run(event: ProcessEvent, attempt: number, signal: AbortSignal): Promise<RunResult> {
    const host = this.#host;
    const invoker = this.#invoker;
    if (!invoker) {
      if (!this.#warnedNoRunner) {
        host.logger.warning("no agent runner: events are dead-lettered", { process: host.name });
      }
      this.#warnedNoRunner = true;
      throw new RunBlockedError("no runner", "no agent runner is configured");
    }
    const config = host.runConfig();
    const invocation = ++this.#invocations;
    const journal = host.journal;
    const { trigger_id, trigger_type, event_id } = event;
    const report = this.log.begin({ invocation, attempt, event_id, trigger_id, trigger_type });
    await journal?.record("invocation_start", {
      invocation,
      run_id: report.runId,
      event_id,
      trigger_id,
      attempt,
    });
    host.runStarted();
    const { health: monitor, ...stores } = host.stores();
    const watch = monitor?.watch(report.runId); // Health (issue 13): undefined when health is off
    // Hooks: run_start / run_end (only built when some hook listens).
    const hooks = stores.hooks?.has("run_start") || stores.hooks?.has("run_end") ? stores.hooks : undefined;
    const facts = hooks && { run_id: report.runId, invocation, attempt, event_id, trigger_id, trigger_type };
    if (facts) hooks?.emit("run_start", facts);
    let budget: BudgetRun | undefined;
    try {
      // Mission (issue 13): runs of a completed or failed mission are blocked (dead-lettered, not failed).
      const mission = host.mission?.();
      const missionRefusal = mission?.begin();
      if (missionRefusal) throw new RunBlockedError(missionRefusal);
      // Budget (issue 13): the run-start check; a refused run is blocked (dead-lettered, not failed).
      budget = host.budget?.()?.startRun();
      if (budget?.refusal) throw new RunBlockedError(`budget exceeded: ${budget.refusal.violation.limit}`);
      const result = await invoker({
        name: host.name,
        processId: host.processId,
        config,
        event,
        attempt,
        invocation,
        journal,
        logger: host.logger,
        signal,
        report,
        conversation: host.conversation,
        ...stores,
        health: watch,
        budget,
        mission,
      }) ?? {};
      const reply = result.response === undefined ? null : result.response.slice(0, REPLY_CHARS);
      const record = report.end("succeeded", { reply });
      if (facts) endHook(hooks, facts, record);
      await journal?.record("invocation_result", {
        invocation,
        run_id: report.runId,
        event_id,
        trigger_type,
        attempt,
        duration_ms: record.duration_ms,
        response: reply,
        usage: record.usage,
      });
      watch?.end({ status: "succeeded", reply: result.response ?? null }); // Health (issue 13)
      return result;
    } catch (error) {
      const blocked = error instanceof RunBlockedError;
      const record = report.end(blocked ? "blocked" : "failed", { error: publicError(error) });
      if (facts) endHook(hooks, facts, record);
      await journal?.record("error", {
        invocation,
        run_id: report.runId,
        event_id,
        attempt,
        error_type: error instanceof Error ? error.name : typeof error,
        error: describeError(error).slice(0, ERROR_CHARS),
      });
      watch?.end({ status: blocked ? "blocked" : "failed", reply: null }); // Health (issue 13)
      throw error;
    } finally {
      host.runEnded();
      if (budget?.violation) host.budgetExceeded?.(budget.violation); // Budget (issue 13): on_exceeded
    }
  }
}

/** Fires `run_end` with the run's record. */
function endHook(
  hooks: ProcessHooks | undefined,
  facts: RunStartHookData,
  record: RunRecord,
): void {
  const status = record.status === "running" ? "failed" : record.status;
  hooks?.emit("run_end", {
    ...facts,
    status,
    reply: record.reply,
    usage: record.usage,
    duration_ms: record.duration_ms ?? 0,
    error: record.error,
  });
}

/** What the run log may say about a failure: the runtime's own words only. */
function publicError(error: unknown): string {
  if (error instanceof RunBlockedError) return error.reason;
  if (error instanceof RunError) return error.message.slice(0, ERROR_CHARS);
  return "run failed";
}
