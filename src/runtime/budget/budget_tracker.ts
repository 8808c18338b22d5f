/**
 * BudgetTracker: a process's budget (the `budget` config section): the day counters, the daily reset at
 * `daily_reset_hour_utc` (only then: not also at midnight), the 80 % warnings, the refusals, and the
 * counters kept in each run's checkpoint so they survive a restart. Each run gets a {@linkcode BudgetRun}.
 *
 * @example
 * ```ts
 * import { BudgetTracker } from "./budget_tracker.ts";
 * import { parseSection } from "../config/mod.ts";
 * const parsed = parseSection("budget", { enabled: true, max_tool_calls_per_run: 1 });
 * if (!parsed.ok) throw new Error("invalid");
 * const budget = new BudgetTracker({ config: () => parsed.config });
 * const run = budget.startRun();
 * run.beforeToolCall("search"); // { ok: true }
 * run.beforeToolCall("search").ok; // false: max_tool_calls_per_run
 * ```
 *
 * @module
 */

import type { BudgetConfig } from "../config/mod.ts";
import {
  type BudgetLimitName,
  type BudgetRemaining,
  type DayUsage,
  emptyDay,
  emptyRun,
  isRunLimit,
  limitOf,
  LIMITS,
  nextPeriod,
  periodStart,
  roundCost,
  type RunUsage,
  WARNING_SHARE,
} from "./budget_limits.ts";
import { type BudgetLedger, BudgetRun, type BudgetViolation } from "./budget_run.ts";

/** A budget journal event: an 80 % warning or a refusal. */
export type BudgetEventType = "budget_warning" | "budget_exceeded";

/** Options of {@linkcode BudgetTracker}. */
export interface BudgetTrackerOptions {
  /** The current budget section, read at every check (so live patches apply at the next check). */
  config: () => BudgetConfig;
  /** Now, epoch ms. @default Date.now */
  now?: () => number;
  /** Told of each warning and refusal (the process journals and logs them). @default nothing */
  onEvent?: (type: BudgetEventType, data: Record<string, unknown>) => void;
}

/** The counters kept in a run's checkpoint (`budget`). */
export interface BudgetSnapshot {
  /** Day counters. */
  day: DayUsage;
  /** Start of the current daily period, ISO 8601 UTC. */
  last_reset: string;
  /** Day limits already warned about in this period. */
  warned: BudgetLimitName[];
}

/** The `budget` section of the status body. */
export interface BudgetStatus {
  /** Always true (a process without a budget shows `{enabled: false}`). */
  enabled: true;
  /** What happens after a run with a refusal. */
  on_exceeded: BudgetConfig["on_exceeded"];
  /** What the next run starts with: limit − used, null for unlimited. */
  remaining: BudgetRemaining;
  /** Day counters since `last_reset`. */
  used_today: DayUsage;
  /** Counters of the latest run. */
  last_run: RunUsage;
  /** Start of the current daily period, ISO 8601 UTC. */
  last_reset: string;
  /** When the day counters reset next, ISO 8601 UTC. */
  next_reset: string;
  /** Refusals since `last_reset`. */
  refusals_today: number;
  /** The latest refusal, or null. */
  last_violation: BudgetViolation | null;
}

/** A process's budget. */
export class BudgetTracker {
  #config: () => BudgetConfig;
  #now: () => number;
  #onEvent: (type: BudgetEventType, data: Record<string, unknown>) => void;
  #day: DayUsage = emptyDay();
  #lastReset: number;
  #warnedDay = new Set<BudgetLimitName>();
  #refusalsToday = 0;
  #lastRun: RunUsage = emptyRun();
  #lastViolation: BudgetViolation | null = null;
  #ledger: BudgetLedger;

  /** A budget with zeroed counters; the current period starts at the latest reset hour. */
  constructor(options: BudgetTrackerOptions) {
    this.#config = options.config;
    this.#now = options.now ?? (() => Date.now());
    this.#onEvent = options.onEvent ?? (() => {});
    this.#lastReset = periodStart(this.#now(), this.#config().daily_reset_hour_utc);
    this.#ledger = {
      config: () => this.#config(),
      day: () => this.#rollover(),
      warn: (run) => this.#warn(run),
      exceeded: (violation) => this.#exceeded(violation),
      now: () => this.#now(),
      remaining: (run) => this.#remaining(run),
      snapshot: () => ({ ...this.snapshot() }),
    };
  }

  /**
   * Begins a run: checks `max_runs_per_day` and `max_tokens_per_day` (see `BudgetRun.refusal`) and counts
   * the run when it may go on.
   */
  startRun(): BudgetRun {
    const run = new BudgetRun(this.#ledger);
    this.#lastRun = run.usage;
    run.begin();
    return run;
  }

  /** What the next run starts with. */
  remaining(): BudgetRemaining {
    return this.#remaining(emptyRun());
  }

  /** The counters to keep (day counters, period start, warnings given). */
  snapshot(): BudgetSnapshot {
    this.#rollover();
    return {
      day: { ...this.#day },
      last_reset: new Date(this.#lastReset).toISOString(),
      warned: [...this.#warnedDay],
    };
  }

  /**
   * Brings back counters kept by {@linkcode BudgetTracker.snapshot} (from the last checkpoint). A value of
   * another shape is ignored (false). Counters of a period that has since ended are reset at the next check.
   */
  restore(value: unknown): boolean {
    const snapshot = parseSnapshot(value);
    if (!snapshot) return false;
    this.#day = snapshot.day;
    this.#lastReset = Date.parse(snapshot.last_reset);
    this.#warnedDay = new Set(snapshot.warned);
    this.#rollover();
    return true;
  }

  /** The `budget` section of the status body. */
  status(): BudgetStatus {
    const day = this.#rollover();
    const config = this.#config();
    return {
      enabled: true,
      on_exceeded: config.on_exceeded,
      remaining: this.remaining(),
      used_today: { ...day },
      last_run: { ...this.#lastRun },
      last_reset: new Date(this.#lastReset).toISOString(),
      next_reset: new Date(nextPeriod(periodStart(this.#now(), config.daily_reset_hour_utc))).toISOString(),
      refusals_today: this.#refusalsToday,
      last_violation: this.#lastViolation,
    };
  }

  /** Today's counters, after resetting them when a reset hour has passed since the last reset. */
  #rollover(): DayUsage {
    const start = periodStart(this.#now(), this.#config().daily_reset_hour_utc);
    if (start > this.#lastReset) {
      this.#day = emptyDay();
      this.#warnedDay.clear();
      this.#refusalsToday = 0;
      this.#lastReset = start;
    }
    return this.#day;
  }

  #remaining(run: RunUsage): BudgetRemaining {
    const config = this.#config();
    const day = this.#rollover();
    const remaining = {} as Record<keyof BudgetRemaining, number | null>;
    for (const spec of LIMITS) {
      const limit = limitOf(config, spec.name);
      remaining[spec.key] = limit === null ? null : roundCost(limit - spec.read(run, day));
    }
    return remaining;
  }

  #warn(run: BudgetRun): void {
    const config = this.#config();
    const day = this.#day;
    for (const spec of LIMITS) {
      const limit = limitOf(config, spec.name);
      if (limit === null) continue;
      const used = spec.read(run.usage, day);
      if (used < limit * WARNING_SHARE || used > limit) continue;
      const warned = isRunLimit(spec.name) ? run.warned : this.#warnedDay;
      if (warned.has(spec.name)) continue;
      warned.add(spec.name);
      this.#onEvent("budget_warning", { limit: spec.name, limit_value: limit, current_value: used });
    }
  }

  #exceeded(violation: BudgetViolation): void {
    this.#refusalsToday++;
    this.#lastViolation = violation;
    this.#onEvent("budget_exceeded", { ...violation });
  }
}

const DAY_KEYS: readonly (keyof DayUsage)[] = ["tool_calls", "runs", "cost", "tokens"];
const LIMIT_NAMES = new Set<string>(LIMITS.map((spec) => spec.name));

function parseSnapshot(value: unknown): BudgetSnapshot | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { day, last_reset, warned } = value as Record<string, unknown>;
  if (typeof day !== "object" || day === null || typeof last_reset !== "string") return undefined;
  if (Number.isNaN(Date.parse(last_reset))) return undefined;
  const counters = emptyDay();
  for (const key of DAY_KEYS) {
    const count = (day as Record<string, unknown>)[key];
    if (typeof count !== "number" || !(count >= 0)) return undefined;
    counters[key] = count;
  }
  const names = Array.isArray(warned) ? warned.filter((n) => LIMIT_NAMES.has(n)) as BudgetLimitName[] : [];
  return { day: counters, last_reset, warned: names };
}
