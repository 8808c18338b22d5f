/**
 * The run log: the recent runs of one process (status, trigger, timings, usage, final reply, steps), token
 * usage per day, and a live feed of run progress for `GET /processes/{name}/runs/events`.
 *
 * Kept in memory: the newest {@linkcode RUN_LOG_CAPACITY} runs, each with at most
 * {@linkcode RUN_STEP_LIMIT} steps. The journal is the durable record.
 *
 * @module
 */

import { epochSeconds, uuid } from "../_util/ids.ts";

/** Most runs kept. */
export const RUN_LOG_CAPACITY = 100;
/** Most steps kept per run; later steps are counted but not kept. */
export const RUN_STEP_LIMIT = 200;

/** Where a run is: in flight, ended with a reply, failed, or blocked (guardrails, no runner). */
export type RunStatus = "running" | "succeeded" | "failed" | "blocked";

/** Tokens a model used. */
export interface TokenUsage {
  /** Prompt tokens. */
  input_tokens: number;
  /** Completion tokens. */
  output_tokens: number;
}

/** One run, as `GET /processes/{name}/runs` lists it. */
export interface RunRecord {
  /** Run id (UUID). */
  run_id: string;
  /** Ordinal of the run in the process (1-based). */
  invocation: number;
  /** 1 for the first try of the event, 2 for the first retry, ... */
  attempt: number;
  /** The event's id. */
  event_id: string;
  /** Trigger that produced the event. */
  trigger_id: string;
  /** Trigger type. */
  trigger_type: string;
  /** Where the run is. */
  status: RunStatus;
  /** Start, epoch seconds. */
  started_at: number;
  /** End, epoch seconds; null while running. */
  ended_at: number | null;
  /** Duration in ms (one decimal); null while running. */
  duration_ms: number | null;
  /** Model turns so far. */
  model_turns: number;
  /** Tool calls so far. */
  tool_calls: number;
  /** Tokens used so far. */
  usage: TokenUsage;
  /** The final reply (at most 2,000 characters); null until the run succeeds. */
  reply: string | null;
  /** Why the run failed or was blocked, in the runtime's words; null otherwise. */
  error: string | null;
}

/** Kinds of step: a model turn, a tool call, its result, a retried model request, or a note. */
export type RunStepType = "model_turn" | "tool_call" | "tool_result" | "model_retry" | "note";

/** One step of a run. */
export interface RunStep {
  /** 1-based position in the run. */
  index: number;
  /** Kind. */
  type: RunStepType;
  /** Time, epoch seconds. */
  at: number;
  /** What happened (model text and tool calls; tool name and arguments; result text, truncated). */
  data: Record<string, unknown>;
}

/** A run with its steps, as `GET /processes/{name}/runs/{run_id}` answers it. */
export interface RunDetail extends RunRecord {
  /** Steps, oldest first (at most {@linkcode RUN_STEP_LIMIT}). */
  steps: RunStep[];
  /** Steps taken, including ones not kept. */
  step_count: number;
}

/** One item of the live progress feed. */
export type RunProgress =
  | { type: "run_started"; run: RunRecord }
  | { type: "text"; run_id: string; delta: string }
  | { type: "step"; run_id: string; step: RunStep }
  | { type: "run_ended"; run: RunRecord };

/** Usage of one UTC day. */
export interface DailyUsage extends TokenUsage {
  /** UTC date, `YYYY-MM-DD`. */
  date: string;
  /** Runs begun that day. */
  runs: number;
}

/** The `usage` summary of the status body. */
export interface UsageSummary {
  /** Today's usage (UTC). */
  today: DailyUsage;
  /** Usage since deploy. */
  total: TokenUsage & { runs: number };
}

/** What the runner reports about the run in flight. */
export interface RunReporter {
  /** Run id. */
  readonly runId: string;
  /** Records a step. */
  step(type: RunStepType, data: Record<string, unknown>): void;
  /** Model text as it streams. */
  text(delta: string): void;
  /** Adds tokens used by one model turn. */
  usage(usage: TokenUsage): void;
}

interface Entry {
  record: RunRecord;
  steps: RunStep[];
  stepCount: number;
}

const DAY_MS = 86_400_000;
let dayEnds = 0;
let dayName = "";

/** Today's UTC date, `YYYY-MM-DD` (worked out once a day). */
function today(): string {
  const now = Date.now();
  if (now >= dayEnds) {
    dayName = new Date(now).toISOString().slice(0, 10);
    dayEnds = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
  }
  return dayName;
}

/** The run log of one process. */
export class RunLog {
  #entries = new Map<string, Entry>();
  #listeners = new Set<(progress: RunProgress) => void>();
  #day: DailyUsage = { date: today(), runs: 0, input_tokens: 0, output_tokens: 0 };
  #total = { runs: 0, input_tokens: 0, output_tokens: 0 };

  /** Records the start of a run and answers its reporter. */
  begin(
    run: Pick<RunRecord, "invocation" | "attempt" | "event_id" | "trigger_id" | "trigger_type">,
  ): RunReporter & { end(status: Exclude<RunStatus, "running">, outcome: RunOutcome): RunRecord } {
    const record: RunRecord = {
      run_id: uuid(),
      ...run,
      status: "running",
      started_at: epochSeconds(),
      ended_at: null,
      duration_ms: null,
      model_turns: 0,
      tool_calls: 0,
      usage: { input_tokens: 0, output_tokens: 0 },
      reply: null,
      error: null,
    };
    const entry: Entry = { record, steps: [], stepCount: 0 };
    this.#entries.set(record.run_id, entry);
    while (this.#entries.size > RUN_LOG_CAPACITY) this.#entries.delete(this.#entries.keys().next().value!);
    this.#rollDay().runs++;
    this.#total.runs++;
    const began = performance.now();
    this.#emit({ type: "run_started", run: { ...record } });
    return {
      runId: record.run_id,
      step: (type, data) => this.#step(entry, type, data),
      text: (delta) => this.#emit({ type: "text", run_id: record.run_id, delta }),
      usage: (usage) => this.#usage(record, usage),
      end: (status, outcome) => {
        record.status = status;
        record.ended_at = epochSeconds();
        record.duration_ms = Math.round((performance.now() - began) * 10) / 10;
        record.reply = outcome.reply ?? null;
        record.error = outcome.error ?? null;
        const copy = { ...record, usage: { ...record.usage } };
        this.#emit({ type: "run_ended", run: copy });
        return copy;
      },
    };
  }

  /** The newest runs, newest first. */
  list(limit = RUN_LOG_CAPACITY): RunRecord[] {
    return [...this.#entries.values()].reverse().slice(0, limit).map((e) => ({
      ...e.record,
      usage: { ...e.record.usage },
    }));
  }

  /** One run with its steps, or undefined. */
  get(runId: string): RunDetail | undefined {
    const entry = this.#entries.get(runId);
    if (!entry) return undefined;
    return {
      ...entry.record,
      usage: { ...entry.record.usage },
      steps: entry.steps.map((s) => ({ ...s })),
      step_count: entry.stepCount,
    };
  }

  /** Subscribes to progress; returns an unsubscribe function. */
  subscribe(listener: (progress: RunProgress) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Usage today and since deploy. */
  usage(): UsageSummary {
    return { today: { ...this.#rollDay() }, total: { ...this.#total } };
  }

  #step(entry: Entry, type: RunStepType, data: Record<string, unknown>): void {
    const step: RunStep = { index: ++entry.stepCount, type, at: epochSeconds(), data };
    if (type === "model_turn") entry.record.model_turns++;
    if (type === "tool_call") entry.record.tool_calls++;
    if (entry.steps.length < RUN_STEP_LIMIT) entry.steps.push(step);
    this.#emit({ type: "step", run_id: entry.record.run_id, step });
  }

  #usage(record: RunRecord, usage: TokenUsage): void {
    const day = this.#rollDay();
    for (const key of ["input_tokens", "output_tokens"] as const) {
      record.usage[key] += usage[key];
      day[key] += usage[key];
      this.#total[key] += usage[key];
    }
  }

  #rollDay(): DailyUsage {
    const date = today();
    if (this.#day.date !== date) this.#day = { date, runs: 0, input_tokens: 0, output_tokens: 0 };
    return this.#day;
  }

  #emit(progress: RunProgress): void {
    for (const listener of this.#listeners) {
      try {
        listener(progress);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}

/** How a run ended. */
export interface RunOutcome {
  /** Final reply (truncated by the caller). */
  reply?: string | null;
  /** Why it failed, in the runtime's words. */
  error?: string | null;
}
