/**
 * BudgetRun: the budget checks of one run (model turns, tokens, tool calls), against its own run counters
 * and the process's day counters.
 *
 * @module
 */

import type { BudgetConfig } from "../config/mod.ts";
import {
  type BudgetLimitName,
  type BudgetRemaining,
  type DayUsage,
  emptyRun,
  limitOf,
  roundCost,
  type RunUsage,
} from "./budget_limits.ts";

/** A limit that refused something. */
export interface BudgetViolation {
  /** The limit, a BudgetConfig field name. */
  limit: BudgetLimitName;
  /** Its value when it refused. */
  limit_value: number;
  /** The counter's value before the refused step. */
  current_value: number;
  /** The tool whose call was refused; null for a refused run or model turn. */
  tool: string | null;
  /** When, ISO 8601 UTC. */
  at: string;
}

/** Outcome of a budget check: go on, or the violation and the words the model gets. */
export type BudgetCheck = { ok: true } | { ok: false; violation: BudgetViolation; message: string };

/** What a run needs from the process's budget (the tracker gives it; private to the budget folder). */
export interface BudgetLedger {
  /** The current budget section (live patches included). */
  config(): BudgetConfig;
  /** Today's counters, reset first when the daily reset hour has passed. */
  day(): DayUsage;
  /** Gives the 80 % warnings not yet given for these counters. */
  warn(run: BudgetRun): void;
  /** Records a refusal (journal, log, status). */
  exceeded(violation: BudgetViolation): void;
  /** Now, epoch ms. */
  now(): number;
  /** The process's remaining budget for these run counters. */
  remaining(run: RunUsage): BudgetRemaining;
  /** The counters to keep in the run's checkpoint. */
  snapshot(): Record<string, unknown>;
}

type Candidate = [BudgetLimitName, current: number, next: number];

/** The budget of one run. Made by `BudgetTracker.startRun`. */
export class BudgetRun {
  /** This run's counters. */
  readonly usage: RunUsage = emptyRun();
  /** Limits already warned about in this run. */
  readonly warned: Set<BudgetLimitName> = new Set();
  #ledger: BudgetLedger;
  #violation: BudgetViolation | undefined;
  #refusal: BudgetCheck | undefined;

  /** A run against `ledger` (see `BudgetTracker.startRun`, which also calls {@linkcode BudgetRun.begin}). */
  constructor(ledger: BudgetLedger) {
    this.#ledger = ledger;
  }

  /**
   * The run-start check, once per run: refused when `max_runs_per_day` or `max_tokens_per_day` is used
   * up. Otherwise the run is counted for the day.
   */
  begin(): BudgetCheck {
    const day = this.#ledger.day();
    const check = this.#check([
      ["max_runs_per_day", day.runs, day.runs + 1],
      ["max_tokens_per_day", day.tokens, day.tokens + 1],
    ], null);
    if (!check.ok) {
      this.#refusal = check;
      return check;
    }
    day.runs++;
    this.#ledger.warn(this);
    return check;
  }

  /** The start refusal (`max_runs_per_day` or `max_tokens_per_day` reached), when the run may not happen. */
  get refusal(): { violation: BudgetViolation; message: string } | undefined {
    return this.#refusal && !this.#refusal.ok ? this.#refusal : undefined;
  }

  /** The run's first violation: `on_exceeded` applies after the run when there is one. */
  get violation(): BudgetViolation | undefined {
    return this.#violation;
  }

  /**
   * Before each model turn: refused when the run's turns or tokens, or the day's tokens, are used up.
   * Otherwise the turn is counted.
   */
  beforeTurn(): BudgetCheck {
    const day = this.#ledger.day();
    const run = this.usage;
    const check = this.#check([
      ["max_llm_turns_per_run", run.llm_turns, run.llm_turns + 1],
      ["max_tokens_per_run", run.tokens, run.tokens + 1],
      ["max_tokens_per_day", day.tokens, day.tokens + 1],
    ], null);
    if (!check.ok) return check;
    run.llm_turns++;
    this.#ledger.warn(this);
    return check;
  }

  /** After a model turn: counts its tokens for the run and the day. */
  addTokens(tokens: number): void {
    if (!(tokens > 0)) return;
    const day = this.#ledger.day();
    this.usage.tokens += tokens;
    day.tokens += tokens;
    this.#ledger.warn(this);
  }

  /**
   * Before each tool call: refused when the call would pass a tool-call, cost or irreversible limit (run
   * or day), or when the run's model turns or tokens are used up (no turn is left to read the result).
   * A refused call is not counted; an allowed one is.
   */
  beforeToolCall(tool: string): BudgetCheck {
    const config = this.#ledger.config();
    const cost = config.tool_costs[tool] ?? { cost_weight: 1, irreversible: false };
    const day = this.#ledger.day();
    const run = this.usage;
    const candidates: Candidate[] = [
      ["max_tool_calls_per_run", run.tool_calls, run.tool_calls + 1],
      ["max_tool_calls_per_day", day.tool_calls, day.tool_calls + 1],
      ["max_cost_per_run", run.cost, roundCost(run.cost + cost.cost_weight)],
      ["max_cost_per_day", day.cost, roundCost(day.cost + cost.cost_weight)],
      ["max_llm_turns_per_run", run.llm_turns, run.llm_turns + 1],
      ["max_tokens_per_run", run.tokens, run.tokens + 1],
      ["max_tokens_per_day", day.tokens, day.tokens + 1],
    ];
    if (cost.irreversible) {
      candidates.splice(4, 0, ["max_irreversible_per_run", run.irreversible, run.irreversible + 1]);
    }
    const check = this.#check(candidates, tool);
    if (!check.ok) return check;
    run.tool_calls++;
    day.tool_calls++;
    run.cost = roundCost(run.cost + cost.cost_weight);
    day.cost = roundCost(day.cost + cost.cost_weight);
    if (cost.irreversible) run.irreversible++;
    this.#ledger.warn(this);
    return check;
  }

  /** Whether the prompt shows what is left (`inject_remaining` of the current section). */
  get injectRemaining(): boolean {
    return this.#ledger.config().inject_remaining;
  }

  /** What is left (limit − used; null: unlimited), for the `[Budget Remaining]` prompt block. */
  remaining(): BudgetRemaining {
    return this.#ledger.remaining(this.usage);
  }

  /** The process's counters to keep in the run's checkpoint (`budget`). */
  snapshot(): Record<string, unknown> {
    return this.#ledger.snapshot();
  }

  #check(candidates: readonly Candidate[], tool: string | null): BudgetCheck {
    const config = this.#ledger.config();
    for (const [name, current, next] of candidates) {
      const limit = limitOf(config, name);
      if (limit === null || next <= limit) continue;
      const violation: BudgetViolation = {
        limit: name,
        limit_value: limit,
        current_value: current,
        tool,
        at: new Date(this.#ledger.now()).toISOString(),
      };
      this.#violation ??= violation;
      this.#ledger.exceeded(violation);
      return { ok: false, violation, message: refusalMessage(violation) };
    }
    return { ok: true };
  }
}

/** What the model reads when a tool call is refused (also the run-log note for a refused turn or run). */
export function refusalMessage(violation: BudgetViolation): string {
  const { limit, limit_value, current_value, tool } = violation;
  const reached = `Budget limit reached: ${limit} is ${limit_value} (${current_value} used).`;
  if (tool === null) return reached;
  return `${reached} The call of ${tool} was not made. Do not call more tools; answer with what you have.`;
}
