/**
 * AgentProcess: one named agent process, its lifecycle and its parts.
 *
 * Every lifecycle operation runs one at a time per process, so an API caller never sees a half-done
 * start or stop: `start` during a stop waits for the stop and then starts.
 *
 * @module
 */

import { resolve } from "node:path";
import { Logger } from "../log.ts";
import { describeError } from "../_util/errors.ts";
import { epochSeconds, uuid } from "../_util/ids.ts";
import type { ProcessJournal } from "../journal/mod.ts";
import type { ProcessConfig } from "./config/mod.ts";
import { resolveEnvReferences } from "./policy/mod.ts";
import { ConfigReferenceError, resolveConfig } from "./config/resolve_config.ts";
import { hostEnv, hostEnvUnreadable } from "../_util/host_env.ts";
import {
  Lifecycle,
  type ProcessState,
  STARTED_STATES,
  type StateTransition,
  whenRunnable,
} from "./lifecycle.ts";
import { type ProcessOperation, RuntimeError } from "./errors.ts";
import type { EnvLookup, ProcessPart, ProcessPartFactory, ProcessSource } from "./process_parts.ts";
import type { AgentProcessOptions, ProcessSummary } from "./process_options.ts";
import { type ProcessDeadLetters, ProcessRuns } from "./process_runs.ts";
import { PartSet } from "./part_set.ts";
import { partContext } from "./part_context.ts";
import { Conversation } from "./conversation.ts";
import type { RunLog } from "./run_log.ts";
import { IdleClock } from "./idle_clock.ts";
import { buildStatus, type ProcessCounters, type ProcessStatus } from "./process_status.ts";
import { ProcessStores } from "./process_stores.ts";
import type { ProcessSpool } from "./spool.ts";
import type { ContextStore } from "./context/context_store.ts";
import type { SecretStore } from "./secrets/secret_store.ts";
import type { MemoryStore } from "./memory/memory_store.ts";
import { ProcessHooks } from "./hooks/process_hooks.ts";
import type { Inbox } from "./inbox/inbox.ts";
import type { InboxWaker } from "./inbox/inbox_waker.ts";
import { processInbox } from "./inbox/process_inbox.ts";
import type { HealthMonitor } from "./health/health_monitor.ts";
import type { BudgetTracker } from "./budget/budget_tracker.ts";
import type { MissionTracker } from "./mission/mission_tracker.ts";
import { ProcessGovernance } from "./process_governance.ts";
import { OperationQueue } from "./_operation_queue.ts";
import { reportTransition } from "./_report_transition.ts";

export type { AgentProcessOptions, ProcessSummary } from "./process_options.ts";

const SUSPENDABLE: readonly ProcessState[] = ["running", "awaiting"];
const RESUMABLE: readonly ProcessState[] = ["suspended", "awaiting"];

/**
 * The runs of `process` (delivery, dead letters, injection), for the runtime's own code and tests: a friend
 * accessor, so the field stays `#private` and `ProcessRuns` stays out of the public surface. Set by
 * `AgentProcess`'s static block.
 */
export let runsOf: (process: AgentProcess) => ProcessRuns;

/** One named agent process. */
export class AgentProcess {
  static {
    runsOf = (process) => process.#runs;
  }

  /** Process name. */
  readonly name: string;
  /** Id of this deployment. */
  readonly processId: string;
  /** Deploy time, epoch seconds. */
  readonly createdAt: number;
  /** Where the process came from. */
  readonly source: ProcessSource;
  /** The conversation kept across runs (cleared when the process is removed). */
  readonly conversation: Conversation = new Conversation();
  /** Health monitoring (issue 13): anomalies, their cooldowns and what the detectors observed. */
  readonly health: HealthMonitor;
  #config: ProcessConfig;
  #resolved: ProcessConfig | undefined;
  #env: EnvLookup;
  #journal: ProcessJournal | undefined;
  #logger: Logger;
  #factories: readonly ProcessPartFactory[];
  #parts: PartSet;
  #lifecycle = new Lifecycle();
  #ops: OperationQueue;
  #counters: ProcessCounters = { starts: 0, stops: 0, restarts: 0, start_failures: 0 };
  #startedAt: number | undefined;
  #idleClock: IdleClock;
  /** Runs of this process: delivery, dead letters, injection. */
  #runs: ProcessRuns;
  /** Context, secrets and memory. */
  #stores: ProcessStores;
  /** Hooks of the current start (none while not started). */
  #hooks: ProcessHooks = ProcessHooks.none();
  /** The data directory, absolute (open mode: PartContext.dataDir). */
  #dataDir: string;
  /** The inbox (issue 12), when `inbox.enabled`, and its `inbox.wake` waker. */
  #inbox: Inbox | undefined;
  #waker: InboxWaker;
  /** Governance (issue 13): health, budget, mission. */
  #governance: ProcessGovernance;

  /** A process in state `created`. */
  constructor(options: AgentProcessOptions) {
    this.name = options.name;
    this.processId = options.processId ?? uuid();
    this.createdAt = options.createdAt ?? epochSeconds();
    this.source = options.source ?? "library";
    this.#config = options.config;
    this.#env = options.env ?? hostEnv;
    this.#journal = options.journal;
    this.#logger = options.logger ?? new Logger("agentry.process");
    this.#factories = options.parts ?? [];
    this.#ops = new OperationQueue(this.name);
    this.#parts = new PartSet(this.name, this.#logger);
    this.#idleClock = new IdleClock(() => this.#goIdle());
    this.#dataDir = resolve(options.dataDir ?? ".agentry");
    this.#runs = new ProcessRuns({
      name: this.name,
      processId: this.processId,
      logger: this.#logger,
      journal: this.#journal,
      conversation: this.conversation,
      stores: () => {
        this.#waker.runBegins();
        return {
          context: this.context,
          secrets: this.secrets,
          memory: this.memory,
          hooks: this.#hooks,
          inbox: this.#inbox,
          health: this.health,
        };
      },
      runConfig: () => this.#resolved ?? this.#config,
      runnable: (signal) => this.#runnable(signal),
      fail: (reason) => void this.#serial(() => this.#fail(reason)),
      runStarted: () => this.#idleClock.runStarted(),
      runEnded: () => this.#idleClock.runEnded(this.#config.idle_timeout, STARTED_STATES.has(this.state)),
      budget: () => this.#governance.budget.tracker, // Budget (issue 13)
      budgetExceeded: (violation) => this.#governance.budget.exceeded(violation),
      mission: () => this.#governance.mission.tracker, // Mission (issue 13)
    }, options.invoker);
    this.#lifecycle.onTransition((t) => this.#onTransition(t));
    this.#stores = new ProcessStores({
      name: this.name,
      config: () => this.#config,
      journal: this.#journal,
      logger: this.#logger,
      dataDir: this.#dataDir,
    });
    this.#journal?.setRedactor(this.#stores.secrets);
    // Governance (issue 13) suspends and stops through this host, so a restarted runtime keeps its choice.
    this.#governance = new ProcessGovernance(this, {
      stop: (reason) => this.#serial(() => this.#stop(reason)),
      onGovernedState: options.onGovernedState,
      logger: this.#logger,
      events: options.events, // Escalation events (issue 13): escalation.event_type
    });
    this.health = this.#governance.health;
    ({ inbox: this.#inbox, waker: this.#waker } = processInbox({
      name: this.name,
      config: () => this.#config,
      state: () => this.state,
      logger: this.#logger,
      hooks: () => this.#hooks,
      inject: (event) => void this.#runs.inject(event),
    }));
  }

  /**
   * At deploy: opens the process's spool and brings back what it held (context state, queued events and
   * dead letters, inbox messages). The runtime calls it once, before the first start.
   */
  async openSpool(spool: ProcessSpool): Promise<void> {
    await this.#stores.context.openSpool(spool); // context state (after its journal recovery: the spool wins)
    await this.#runs.openSpool(spool);
    await this.#inbox?.openSpool(spool);
  }

  /** Dead letters: events given up, kept across starts and (with a file spool) runtime restarts. */
  get deadLetters(): ProcessDeadLetters {
    return this.#runs.letters;
  }

  /** The inbox (messages and questions from operators), when `inbox.enabled`; kept across starts. */
  get inbox(): Inbox | undefined {
    return this.#inbox;
  }

  /** The budget (issue 13) while `budget.enabled` (live patches build and remove it); kept across starts. */
  get budget(): BudgetTracker | undefined {
    return this.#governance.budget.tracker;
  }

  /** The mission (issue 13) while `mission.enabled` (live patches build and remove it); kept across starts. */
  get mission(): MissionTracker | undefined {
    return this.#governance.mission.tracker;
  }

  /** Context state: kept for the life of the deployment (at deploy, back from the spool or the journal). */
  get context(): ContextStore {
    return this.#stores.context;
  }

  /** Secrets: resolved at start, revoked at stop (with `revoke_on_stop`) and at removal. */
  get secrets(): SecretStore {
    return this.#stores.secrets;
  }

  /** Long-term memory while started; undefined when not started or without a memory provider. */
  get memory(): MemoryStore | undefined {
    return this.#stores.memory;
  }

  /**
   * Hooks of the current start (an empty set while not started). The inbox fires
   * `hooks.emit("message_received", message)` when a message or question arrives.
   */
  get hooks(): ProcessHooks {
    return this.#hooks;
  }

  /** Current state. */
  get state(): ProcessState {
    return this.#lifecycle.state;
  }

  /** The config as deployed (references unresolved). */
  get config(): ProcessConfig {
    return this.#config;
  }

  /** The process journal, when it has one. */
  get journal(): ProcessJournal | undefined {
    return this.#journal;
  }

  /** Recent runs, token usage and the live progress feed. */
  get runLog(): RunLog {
    return this.#runs.log;
  }

  /** Recent transitions, oldest first. */
  get history(): readonly StateTransition[] {
    return this.#lifecycle.history;
  }

  /** `{name, state, process_id}`. */
  summary(): ProcessSummary {
    return { name: this.name, state: this.state, process_id: this.processId };
  }

  /** The status body of `GET /processes/{name}`. */
  status(): ProcessStatus {
    return buildStatus({
      process: this,
      counters: this.#counters,
      startedAt: STARTED_STATES.has(this.state) ? this.#startedAt : undefined,
      lastActivityAt: this.#idleClock.lastAt,
      runs: this.#runs.status(),
      parts: this.#parts.statuses(),
      secrets: { enabled: this.#config.secrets.enabled, active: this.#stores.secrets.activeCount },
      inbox: this.#inbox?.status() ?? { enabled: false, pending: 0, questions: 0 },
      budget: this.#governance.budget.status(),
      mission: this.#governance.mission.status(), // Mission (issue 13)
    });
  }

  /** Subscribes to transitions; returns an unsubscribe function. */
  onTransition(listener: (transition: StateTransition) => void): () => void {
    return this.#lifecycle.onTransition(listener);
  }

  /**
   * Starts a created, stopped or failed process and answers the state reached. Starting a process that
   * is already started changes nothing. Rejects with a {@linkcode RuntimeError} START_FAILED when the start fails;
   * the process is then `failed`.
   */
  start(): Promise<ProcessState> {
    return this.#serial(() => this.#start("start requested"));
  }

  /** Stops a started process; stopping a created, stopped or failed one changes nothing. */
  stop(): Promise<ProcessState> {
    return this.#serial(() => this.#stop("stop requested"));
  }

  /** Stops the process when started, then starts it. */
  restart(): Promise<ProcessState> {
    return this.#serial(async () => {
      await this.#stop("restart requested");
      this.#counters.restarts++;
      return await this.#start("restart requested");
    });
  }

  /**
   * Stops the process and releases what it holds for good, before it is removed: memory closed, secrets
   * revoked (zero-filled) whatever `revoke_on_stop` says, context state reset (journaled).
   */
  close(): Promise<void> {
    this.#ops.close(); // removal wins: operations still queued, and later ones, are refused
    return this.#serial(async () => {
      await this.#stop("process removed");
      this.#inbox?.clear();
      await this.#stores.close();
    }, true);
  }

  /** Pauses a running or awaiting process; rejects with a {@linkcode RuntimeError} INVALID_STATE otherwise. */
  suspend(reason = "suspend requested"): Promise<ProcessState> {
    return this.#serial(() => {
      if (!SUSPENDABLE.includes(this.state)) throw this.#refuse("suspend", SUSPENDABLE);
      this.#idleClock.clear();
      this.#lifecycle.move("suspended", reason);
      return Promise.resolve(this.state);
    });
  }

  /** Resumes a suspended or awaiting process; rejects with a {@linkcode RuntimeError} INVALID_STATE otherwise. */
  resume(reason = "resume requested"): Promise<ProcessState> {
    return this.#serial(() => {
      if (!RESUMABLE.includes(this.state)) throw this.#refuse("resume", RESUMABLE);
      this.#lifecycle.move("running", reason);
      this.#idleClock.mark(this.#config.idle_timeout);
      return Promise.resolve(this.state);
    });
  }

  /** The part of the current start with this name. */
  part(name: string): ProcessPart | undefined {
    return this.#parts.find(name);
  }

  /** Replaces the config; parts see it at the next start (live changes go through the parts). */
  updateConfig(config: ProcessConfig): void {
    this.#config = config;
  }

  /**
   * Replaces the instructions. The next run uses them (a run in flight finishes with the old ones); the
   * connected servers, conversation and context are kept. A process not started uses them at its next start.
   */
  setInstructions(instructions: string): void {
    this.#config = { ...this.#config, instructions };
    if (this.#resolved) this.#resolved = { ...this.#resolved, instructions };
  }

  /** Resolves `${VAR}` references in a value with this process's environment. */
  resolveReferences<T>(value: T): T {
    return resolveEnvReferences(value, this.#env);
  }

  /** Marks activity now. An awaiting process wakes to running; a running one restarts its idle clock. */
  touch(reason: string): void {
    if (this.state === "awaiting") this.#lifecycle.move("running", `woken: ${reason}`);
    if (this.state === "running") this.#idleClock.mark(this.#config.idle_timeout);
  }

  #refuse(operation: ProcessOperation, allowedFrom: readonly ProcessState[]): RuntimeError {
    const state = this.state;
    return new RuntimeError(
      "INVALID_STATE",
      `cannot ${operation} a process in state ${state}; allowed from: ${allowedFrom.join(", ")}`,
      { details: { process: this.name, operation, state, allowedFrom } },
    );
  }

  #serial<T>(operation: () => Promise<T>, closing = false): Promise<T> {
    return this.#ops.run(operation, closing);
  }

  async #start(reason: string): Promise<ProcessState> {
    if (STARTED_STATES.has(this.state)) return this.state;
    this.#lifecycle.move("starting", reason);
    try {
      await this.#stores.start(this.#env);
      await this.#inbox?.start();
      this.#resolved = resolveConfig(this.#config, this.#env, {
        unreadable: this.#env === hostEnv ? hostEnvUnreadable : undefined,
      });
      this.#hooks = ProcessHooks.of(this.#resolved.hooks, {
        process: this.name,
        processId: this.processId,
        logger: this.#logger.child("hooks"),
        journal: this.#journal,
        redactor: this.#stores.secrets,
      });
      this.#runs.begin(this.#resolved);
      await this.#parts.startAll(
        this.#factories,
        partContext(this, {
          resolved: this.#resolved,
          logger: this.#logger,
          dataDir: this.#dataDir,
          deliver: (event, signal) => this.#runs.deliver(event, signal),
          accept: (event) => this.#runs.accept(event), // event ledger: recorded before a webhook answers 202
          onTransition: (listener) => this.#parts.track(this.#lifecycle.onTransition(listener)),
        }),
      );
      if (this.#config.triggers.length > 0 && !this.#parts.find("triggers")) {
        const message = "the config has triggers but this runtime has no triggers part; they will not fire";
        this.#logger.warning(message, { process: this.name });
      }
    } catch (error) {
      this.#counters.start_failures++;
      this.#logger.warning("process start failed", { process: this.name, error: describeError(error) });
      await this.#stopParts();
      await this.#runs.end("process stopped");
      this.#lifecycle.move("failed", "start failed");
      const why = error instanceof ConfigReferenceError ? `: ${error.message}` : "";
      throw new RuntimeError("START_FAILED", `process ${this.name} could not be started${why}`, {
        cause: error,
        details: { process: this.name },
      });
    }
    this.#counters.starts++;
    this.#startedAt = Date.now();
    this.#lifecycle.move("running", "started");
    this.#idleClock.mark(this.#config.idle_timeout);
    return this.state;
  }

  async #stop(reason: string): Promise<ProcessState> {
    if (!STARTED_STATES.has(this.state)) return this.state;
    this.#lifecycle.move("stopping", reason);
    this.#idleClock.clear();
    await this.#stopParts();
    await this.#runs.end("process stopped");
    this.#counters.stops++;
    this.#lifecycle.move("stopped", "stopped");
    return this.state;
  }

  async #stopParts(): Promise<void> {
    await this.#parts.stopAll();
    await this.#stores.stop();
    this.#resolved = undefined;
  }

  async #fail(reason: string): Promise<ProcessState> {
    if (!STARTED_STATES.has(this.state)) return this.state;
    this.#idleClock.clear();
    this.#lifecycle.move("failed", reason);
    await this.#stopParts();
    await this.#runs.end("process failed");
    return this.state;
  }

  #runnable(signal: AbortSignal): Promise<void> {
    return whenRunnable(this.#lifecycle, () => this.touch("event"), signal);
  }

  #goIdle(): void {
    if (this.state !== "running") return;
    this.#lifecycle.move("awaiting", `idle for ${this.#config.idle_timeout}s`);
  }

  #onTransition(transition: StateTransition): void {
    reportTransition(transition, {
      name: this.name,
      processId: this.processId,
      hooks: this.#hooks,
      // Hooks: state_change; a start's hooks end with its last transition (to stopped or failed).
      afterHooks: () => {
        if (transition.to === "stopped" || transition.to === "failed") this.#hooks = ProcessHooks.none();
      },
      logger: this.#logger,
      journal: this.#journal,
    });
  }
}
