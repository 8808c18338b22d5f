/**
 * MissionTracker: the mission of one process. It reads the process's CURRENT `mission` config at every
 * check (a live patch applies to the next run, evaluation and prompt block, and keeps the progress).
 *
 * States and transitions:
 *
 * | from | to | when |
 * |---|---|---|
 * | pending | active | the first run of the mission begins |
 * | active | paused | `pause()` (operator) |
 * | paused | active | `resume()` (operator) |
 * | active | completed | an evaluation says achieved with confidence >= `confidence_threshold` |
 * | active | failed | `timeout_hours` since activation, or `max_invocations` successful runs, checked at run start and after each run |
 * | active, paused | failed | `fail(reason)` (operator) |
 *
 * While paused, runs go on and are counted but nothing is evaluated and no limit fails the mission.
 * Evaluation: after every `eval_every`-th successful run of an active mission, the judge is asked
 * (`mission_judge.ts`). A malformed answer or a failed judge call is journaled `mission_evaluation_error`
 * and changes nothing. A verdict not achieved (or under the threshold) with confidence below the threshold
 * is escalated to `escalation` when one is set. On completion `on_complete` applies: `stop` stops the
 * process, `suspend` suspends it, `continue` keeps it running (its runs go on, nothing more is evaluated).
 * Runs of a completed mission (except with `continue`) and of a failed one are refused by {@linkcode
 * MissionTracker.begin}.
 *
 * Journal entries: `mission_state` {from, to, reason, mission_reason} (`mission_reason`: the view's `reason`), `mission_evaluation` (every field of
 * {@linkcode MissionEvaluation}), `mission_evaluation_error` {invocation, error}, `mission_escalation`
 * {confidence, webhook, sent, status?, error?, event, event_id?, event_error?} (see `EscalationDelivery`).
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import type { Logger } from "../../log.ts";
import type { ProcessJournal } from "../../journal/mod.ts";
import type { MissionConfig } from "../config/mission_config.ts";
import { RuntimeError } from "../errors.ts";
import { type EscalateFunction, escalateVia } from "../escalator.ts";
import { type JudgeEvidence, judgePrompt, type MissionJudge, parseJudgeAnswer } from "./mission_judge.ts";
import { type MissionSnapshot, parseMissionSnapshot } from "./mission_snapshot.ts";

/** Mission states. */
export type MissionState = "pending" | "active" | "paused" | "completed" | "failed";

/** Operator operations on a mission. */
export type MissionOperation = "fail" | "pause" | "resume";

/** One evaluation by the judge. */
export interface MissionEvaluation {
  /** 1 for the first evaluation of the mission. */
  evaluation: number;
  /** The mission's successful-run count when it was made. */
  invocation: number;
  /** The judge's verdict. */
  achieved: boolean;
  /** 0 to 1. */
  confidence: number;
  /** The judge's reasons. */
  reasoning: string;
  /** Where the mission stands. */
  progress_summary: string;
  /** The judge model, "<provider>:<model>" (`eval_model`), or "process" for the process's own model. */
  model: string;
  /** ISO 8601 UTC time. */
  timestamp: string;
}

/** The view of `GET /processes/{name}/mission` (and the facts of the `[Mission]` prompt block). */
export interface MissionView {
  /** Current state. */
  state: MissionState;
  /** Objective (current config). */
  objective: string;
  /** Success criteria (current config). */
  success_criteria: string;
  /** Successful runs counted while the mission was active or paused. */
  invocation_count: number;
  /** When it became active (ISO), or null while pending. */
  activated_at: string | null;
  /** Why it completed or failed, or null. */
  reason: string | null;
  /** Evaluations, oldest first. */
  evaluations: MissionEvaluation[];
}

/** The process a {@linkcode MissionTracker} belongs to (an `AgentProcess` through `ProcessMission`). */
export interface MissionHost {
  /** Process name. */
  readonly name: string;
  /** Process id (in escalations). */
  readonly processId: string;
  /** The current config: its `mission` section is read at every check. */
  readonly config: { readonly mission: MissionConfig };
  /** The process journal. */
  readonly journal?: ProcessJournal | undefined;
  /** Suspends the process (`on_complete: "suspend"`); not awaited by the tracker. */
  suspend(reason: string): Promise<unknown>;
  /** Stops the process (`on_complete: "stop"`); not awaited by the tracker. */
  stop(reason: string): Promise<unknown>;
  /** Resolves `${VAR}` references of the escalation target. */
  resolveReferences<T>(value: T): T;
  /**
   * Delivers an escalation (a governed host's shares the process's event bus). @default an `Escalator` of
   * this tracker's own, with no event bus
   */
  readonly escalate?: EscalateFunction;
}

/** Evaluations kept per mission (the oldest go first). */
export const EVALUATION_HISTORY_LIMIT = 200;

/** The mission of one process. */
export class MissionTracker {
  #host: MissionHost;
  #logger: Logger;
  #now: () => number;
  #state: MissionState = "pending";
  #invocations = 0;
  #activatedAt: number | null = null;
  #reason: string | null = null;
  #evaluations: MissionEvaluation[] = [];
  #evaluationCount = 0;
  #pending = new Set<Promise<unknown>>();
  #deliver: EscalateFunction;

  /** A pending mission of `host`. */
  constructor(host: MissionHost, options: { logger: Logger; now?: () => number }) {
    this.#host = host;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#deliver = escalateVia(host, { logger: options.logger });
  }

  /** Current state. */
  get state(): MissionState {
    return this.#state;
  }

  /**
   * A run begins: activates a pending mission, fails an active one past its limits, and answers the
   * dead-letter reason when the run must not happen (`mission completed`, `mission failed`).
   */
  begin(): string | undefined {
    if (this.#state === "pending") this.#move("active", "first run");
    if (this.#state === "active") this.#checkLimits();
    if (this.#state === "failed") return "mission failed";
    if (this.#state === "completed" && this.#host.config.mission.on_complete !== "continue") {
      return "mission completed";
    }
    return undefined;
  }

  /** A run succeeded: counts it, evaluates when due, then checks the limits. */
  async afterRun(
    evidence: Omit<JudgeEvidence, "invocation">,
    options: { judge: MissionJudge; signal?: AbortSignal },
  ): Promise<void> {
    if (this.#state !== "active" && this.#state !== "paused") return;
    const invocation = ++this.#invocations;
    const config = this.#host.config.mission;
    if (this.#state === "active" && invocation % config.eval_every === 0) {
      await this.#evaluate({ ...evidence, invocation }, options);
    }
    if (this.#state === "active") this.#checkLimits();
  }

  /** Operator fail (active or paused); `reason` defaults to "failed by an operator". */
  fail(reason = "failed by an operator"): void {
    this.#require("fail", ["active", "paused"]);
    this.#reason = reason;
    this.#move("failed", reason);
  }

  /** Operator pause (active): evaluations and limits hold until resumed. */
  pause(): void {
    this.#require("pause", ["active"]);
    this.#move("paused", "paused by an operator");
  }

  /** Operator resume (paused): back to active. */
  resume(): void {
    this.#require("resume", ["paused"]);
    this.#move("active", "resumed by an operator");
  }

  /** The mission's state, counters and evaluations. */
  view(): MissionView {
    const config = this.#host.config.mission;
    return {
      state: this.#state,
      objective: config.objective,
      success_criteria: config.success_criteria,
      invocation_count: this.#invocations,
      activated_at: this.#activatedAt === null ? null : new Date(this.#activatedAt).toISOString(),
      reason: this.#reason,
      evaluations: this.#evaluations.map((e) => ({ ...e })),
    };
  }

  /** What a checkpoint keeps. */
  snapshot(): MissionSnapshot {
    return {
      state: this.#state,
      invocations: this.#invocations,
      activated_at: this.#activatedAt,
      reason: this.#reason,
      evaluation_count: this.#evaluationCount,
      evaluations: this.#evaluations.map((e) => ({ ...e })),
    };
  }

  /** Brings back a {@linkcode MissionTracker.snapshot}; false (nothing changed) for another shape. */
  restore(value: unknown): boolean {
    const snapshot = parseMissionSnapshot(value);
    if (!snapshot) return false;
    this.#state = snapshot.state;
    this.#invocations = snapshot.invocations;
    this.#activatedAt = snapshot.activated_at;
    this.#reason = snapshot.reason;
    this.#evaluationCount = snapshot.evaluation_count;
    this.#evaluations = snapshot.evaluations.map((e) => ({ ...e }));
    return true;
  }

  /**
   * Replays a `mission_state` entry journaled after the last checkpoint (an operator's pause, resume or fail,
   * an activation or a limit reached at run start). `at` is the entry's time in ms.
   */
  replay(data: Record<string, unknown>, at: number): void {
    const states: readonly string[] = ["pending", "active", "paused", "completed", "failed"];
    const to = data.to;
    if (typeof to !== "string" || !states.includes(to)) return;
    this.#state = to as MissionState;
    if (to === "active" && this.#activatedAt === null) this.#activatedAt = at;
    const reason = data.mission_reason;
    if (typeof reason === "string" || reason === null) this.#reason = reason;
  }

  /** Resolves when on_complete actions and escalations under way have settled. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async #evaluate(evidence: JudgeEvidence, options: { judge: MissionJudge; signal?: AbortSignal }) {
    const config = this.#host.config.mission;
    const { system, user } = judgePrompt(config, evidence);
    const journal = this.#host.journal;
    let answer;
    try {
      const text = await options.judge({ model: config.eval_model, system, user, signal: options.signal });
      answer = parseJudgeAnswer(text);
    } catch (error) {
      const message = describeError(error).slice(0, 1000);
      this.#logger.warning("mission evaluation failed", { process: this.#host.name, error: message });
      await journal?.record("mission_evaluation_error", { invocation: evidence.invocation, error: message });
      return;
    }
    if (this.#state !== "active") return; // an operator changed it during the judge call
    const evaluation: MissionEvaluation = {
      evaluation: ++this.#evaluationCount,
      invocation: evidence.invocation,
      ...answer,
      model: config.eval_model ?? "process",
      timestamp: new Date(this.#now()).toISOString(),
    };
    this.#evaluations.push(evaluation);
    if (this.#evaluations.length > EVALUATION_HISTORY_LIMIT) this.#evaluations.shift();
    await journal?.record("mission_evaluation", { ...evaluation });
    const threshold = config.confidence_threshold;
    if (answer.achieved && answer.confidence >= threshold) {
      this.#reason = "objective achieved";
      this.#move("completed", `objective achieved (confidence ${answer.confidence})`);
      if (config.on_complete !== "continue") {
        const action = config.on_complete;
        this.#track(
          (action === "stop" ? this.#host.stop("mission completed") : this.#host.suspend("mission completed"))
            .catch((error) => {
              this.#logger.warning("mission on_complete failed", {
                process: this.#host.name,
                error: String(error),
              });
            }),
        );
      }
    } else if (answer.confidence < threshold && config.escalation) {
      this.#escalate(evaluation, config);
    }
  }

  #escalate(evaluation: MissionEvaluation, config: MissionConfig): void {
    if (!config.escalation) return;
    const target = this.#host.resolveReferences(config.escalation);
    const payload = {
      type: "mission_low_confidence",
      process_id: this.#host.processId,
      process_name: this.#host.name,
      confidence: evaluation.confidence,
      reasoning: evaluation.reasoning,
      progress_summary: evaluation.progress_summary,
      evaluation: evaluation.evaluation,
    };
    this.#track(
      this.#deliver(target, payload).then((delivery) =>
        this.#host.journal?.record("mission_escalation", { confidence: evaluation.confidence, ...delivery })
      ),
    );
  }

  #checkLimits(): void {
    const config = this.#host.config.mission;
    const started = this.#activatedAt ?? this.#now();
    if (config.timeout_hours > 0 && this.#now() - started >= config.timeout_hours * 3_600_000) {
      this.#reason = "timeout reached";
      this.#move("failed", `timeout reached (${config.timeout_hours} h)`);
    } else if (config.max_invocations > 0 && this.#invocations >= config.max_invocations) {
      this.#reason = "max invocations reached";
      this.#move("failed", `max invocations reached (${config.max_invocations})`);
    }
  }

  #require(operation: MissionOperation, allowedFrom: MissionState[]): void {
    if (allowedFrom.includes(this.#state)) return;
    const state = this.#state;
    throw new RuntimeError(
      "MISSION_STATE",
      `cannot ${operation} a mission in state ${state}; allowed from: ${allowedFrom.join(", ")}`,
      { details: { process: this.#host.name, operation, state, allowedFrom } },
    );
  }

  #move(to: MissionState, reason: string): void {
    const from = this.#state;
    this.#state = to;
    if (to === "active" && this.#activatedAt === null) this.#activatedAt = this.#now();
    this.#logger.info("mission state changed", { process: this.#host.name, from, to, reason });
    void this.#host.journal?.record("mission_state", { from, to, reason, mission_reason: this.#reason });
  }

  #track(task: Promise<unknown>): void {
    this.#pending.add(task);
    void task.finally(() => this.#pending.delete(task));
  }
}
