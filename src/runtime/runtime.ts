/**
 * AgentRuntime: the registry of named processes held by one runtime.
 *
 * @module
 */

import { resolve } from "node:path";
import {
  type AgentRuntimeOptions,
  DEFAULT_DATA_DIR,
  type DeployOptions,
  type ReconfigureChange,
  type RuntimeStatus,
} from "./runtime_options.ts";
import { Logger } from "../log.ts";
import { describeError } from "../_util/errors.ts";
import { JournalPool, ProcessJournal } from "../journal/mod.ts";
import type { ConfigIssue, ProcessConfig, ProcessConfigInput } from "./config/mod.ts";
import { deployConfig, parsedConfig, parsedSection } from "./_deploy_config.ts";
import { hostEnv } from "../_util/host_env.ts";
import { resolveEnvReferences } from "./policy/mod.ts";
import { AgentProcess, type ProcessSummary } from "./process.ts";
import { RuntimeError } from "./errors.ts";
import type { EnvLookup, ProcessPartFactory } from "./process_parts.ts";
import type { Invoker } from "./process_event.ts";
import { type ProcessState, STARTED_STATES } from "./lifecycle.ts";
import type { ProcessStatus } from "./process_status.ts";
import type { DesiredState, ProcessStore, StoredProcess } from "./process_store.ts";
import { restoreDeployments } from "./runtime_restore.ts";
import { recoveryStopAt } from "./recovery_stop_at.ts";
import { type ProcessSpool, Spool } from "./spool.ts";
import { recoverConversation } from "./conversation.ts";
import { recoverBudget } from "./budget/recover_budget.ts";
import { recoverMission } from "./mission/recover_mission.ts";
import { warnUndurableState } from "./undurable_state.ts"; // governance without a durable journal
import type { RuntimeEvents } from "./escalator.ts";
import { RuntimeEventLog } from "./runtime_events.ts"; // runtime events (issue 20)
import { observeProcess } from "./observe_process.ts";

/** Holds named processes and their shared resources (journals, store). */
export class AgentRuntime {
  /** Absolute state directory. */
  readonly dataDir: string;
  /** Parent logger. */
  readonly logger: Logger;
  /** Runtime events (issue 20): deploys, removals, states, runs, trigger fires, dead letters, anomalies. */
  readonly eventLog: RuntimeEventLog = new RuntimeEventLog();
  #env: EnvLookup;
  #parts: readonly ProcessPartFactory[];
  #store: ProcessStore | undefined;
  #spool: Spool;
  #invoker: Invoker | undefined;
  #checkConfig: (config: ProcessConfig) => ConfigIssue[];
  #stored = new Map<string, StoredProcess>();
  #processes = new Map<string, AgentProcess>();
  #deploying = new Set<string>();
  #journals: JournalPool;
  #processLogger: Logger;
  #events: RuntimeEvents | undefined; // Escalation events (issue 13)
  #observers = new Map<string, () => void>();

  /** An empty runtime. */
  constructor(options: AgentRuntimeOptions = {}) {
    this.dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
    this.logger = options.logger ?? new Logger("agentry");
    this.#env = options.env ?? hostEnv;
    this.#parts = options.parts ?? [];
    this.#store = options.store;
    this.#journals = new JournalPool({ sync: options.fsync }); // Durability (issue 13)
    this.#spool = options.spool ?? new Spool();
    this.#invoker = options.invoker;
    this.#checkConfig = options.checkConfig ?? (() => []);
    this.#processLogger = this.logger.child("process");
    this.#events = options.events; // Escalation events (issue 13)
  }

  /** Number of registered processes. */
  get size(): number {
    return this.#processes.size;
  }

  /** The process with this name. */
  get(name: string): AgentProcess | undefined {
    return this.#processes.get(name);
  }

  /** The process with this name; rejects with a {@linkcode RuntimeError} PROCESS_NOT_FOUND otherwise. */
  require(name: string): AgentProcess {
    const process = this.#processes.get(name);
    if (!process) {
      throw new RuntimeError("PROCESS_NOT_FOUND", `no process named ${name}`, { details: { process: name } });
    }
    return process;
  }

  /** Issues of a parsed config beyond its schema (see {@linkcode AgentRuntimeOptions.checkConfig}). */
  checkConfig(config: ProcessConfig): ConfigIssue[] {
    return this.#checkConfig(config);
  }

  /** `{name, state, process_id}` of every process, in deploy order. */
  list(): ProcessSummary[] {
    return [...this.#processes.values()].map((p) => p.summary());
  }

  /** Status of the runtime and every process. */
  status(): RuntimeStatus {
    const processes: Record<string, ProcessStatus> = {};
    for (const [name, process] of this.#processes) processes[name] = process.status();
    return { process_count: this.#processes.size, processes };
  }

  /**
   * Registers a process built from a config as the control API takes it (defaults filled here; a parsed
   * config works too). Rejects with a {@linkcode RuntimeError} PROCESS_EXISTS for a taken name;
   * INVALID_CONFIG (nothing registered; `details.issues` such as `triggers[1].hmac_secret: ${SECRET} is
   * not set`) for an invalid config, a `checkConfig` issue or a `${VAR}` that does not resolve to a valid
   * value; DEPLOY_FAILED when the config cannot become a process. With `start`, a failed start rejects
   * with the start error and leaves the process registered in state `failed`.
   */
  async deploy(
    name: string,
    config: ProcessConfigInput | ProcessConfig,
    options: DeployOptions = {},
  ): Promise<AgentProcess> {
    // A name being deployed counts as taken, so concurrent deploys of one name store and open nothing twice.
    if (this.#processes.has(name) || this.#deploying.has(name)) throw processExists(name);
    this.#deploying.add(name);
    try {
      const parsed = deployConfig(name, config, {
        env: options.env ?? this.#env,
        checkConfig: this.#checkConfig,
        restored: options.restoredRecord !== undefined,
      });
      const process = await this.#register(name, parsed, options);
      if (options.start) await process.start();
      return process;
    } finally {
      this.#deploying.delete(name);
    }
  }

  async #register(name: string, config: ProcessConfig, options: DeployOptions): Promise<AgentProcess> {
    const env = options.env ?? this.#env;
    const journal = this.#openJournal(name, config, env);
    const process = new AgentProcess({
      name,
      config,
      source: options.source,
      processId: options.restoredRecord?.process_id,
      createdAt: options.restoredRecord?.created_at,
      env,
      journal,
      logger: this.#processLogger,
      parts: this.#parts,
      invoker: this.#invoker,
      dataDir: this.dataDir,
      onGovernedState: (state) => void this.#remember(name, state),
      events: this.#events, // Escalation events (issue 13)
    });
    const spool = this.#spool.forProcess(name);
    try {
      await this.#recover(process, spool);
      if (options.persistConfig && this.#store) {
        const record: StoredProcess = {
          name,
          process_id: process.processId,
          created_at: process.createdAt,
          config: options.persistConfig,
          desired_state: options.start ? "running" : "stopped",
        };
        try {
          await this.#store.save(record);
        } catch (error) {
          throw deployFailed(`process ${name} could not be stored`, { process: name, cause: error });
        }
        this.#stored.set(name, record);
      }
    } catch (error) {
      await spool.close();
      throw error;
    }
    if (options.restoredRecord) this.#stored.set(name, options.restoredRecord);
    this.#processes.set(name, process);
    this.eventLog.emit("process.deployed", {
      process: name,
      process_id: process.processId,
      source: process.source,
    });
    this.#observers.set(name, observeProcess(process, this.eventLog));
    this.logger.info("process deployed", {
      process: name,
      process_id: process.processId,
      source: process.source,
    });
    warnUndurableState(process, this.logger); // budget/mission without a durable journal: one warning
    return process;
  }

  /** Brings back what a process kept: context, conversation, budget and mission (one journal read), spool. */
  async #recover(process: AgentProcess, spool: ProcessSpool): Promise<void> {
    try {
      // Faster recovery (issue 13): only the entries from the last checkpoint (or context reset) on.
      const stopAt = recoveryStopAt({
        budget: process.budget !== undefined,
        mission: process.mission !== undefined,
      });
      const entries = process.journal ? await process.journal.read({ stopAt }) : [];
      process.context.recover(entries);
      recoverConversation(process.conversation, entries);
      if (process.budget) recoverBudget(process.budget, entries);
      if (process.mission) recoverMission(process.mission, entries);
      await process.openSpool(spool); // queued events, dead letters, inbox messages
    } catch (error) {
      throw deployFailed(`the context of ${process.name} could not be recovered`, {
        process: process.name,
        cause: error,
      });
    }
  }

  /** Starts a process as an operator request (remembered across restarts for API deployments). */
  start(name: string): Promise<ProcessState> {
    return this.#operate(name, (p) => p.start());
  }

  /** Stops a process as an operator request. */
  stop(name: string): Promise<ProcessState> {
    return this.#operate(name, (p) => p.stop());
  }

  /** Restarts a process as an operator request. */
  restart(name: string): Promise<ProcessState> {
    return this.#operate(name, (p) => p.restart());
  }

  /** Suspends a process as an operator request. */
  suspend(name: string): Promise<ProcessState> {
    return this.#operate(name, (p) => p.suspend());
  }

  /** Resumes a process as an operator request. */
  resume(name: string): Promise<ProcessState> {
    return this.#operate(name, (p) => p.resume());
  }

  /**
   * Replaces a process's config. For an API deployment the stored config is replaced too: `rawConfig`
   * maps the stored JSON config (as deployed, references unresolved) to the new one. Other processes
   * keep the change in memory only. Running parts see it at the next start.
   */
  async reconfigure(name: string, change: ReconfigureChange): Promise<void> {
    const { rawConfig } = change;
    const process = this.require(name);
    const config = parsedConfig(name, change.config);
    const record = this.#stored.get(name);
    if (record && this.#store) {
      const next = { ...record, config: rawConfig(record.config) };
      await this.#store.save(next);
      this.#stored.set(name, next);
    }
    process.updateConfig(config);
  }

  /**
   * Replaces a process's instructions, in the store too. The next run uses them; a run in flight finishes
   * with the old ones; servers, conversation and context are kept.
   */
  async setInstructions(name: string, instructions: string): Promise<void> {
    const process = this.require(name);
    const record = this.#stored.get(name);
    if (record && this.#store) {
      const next = { ...record, config: { ...record.config, instructions } };
      await this.#store.save(next);
      this.#stored.set(name, next);
    }
    process.setInstructions(instructions);
  }

  /**
   * Live patches (issue 13): replaces a process's `budget`, `health` or `mission` section as a whole
   * (parsed here, defaults filled; an invalid one rejects with INVALID_CONFIG, fields under the key). The
   * budget's limits apply at its next check (counters kept); health and mission read their section at
   * each check (mission progress kept); `enabled` builds or removes budget and mission. `raw` is the
   * section as written (references unresolved; @default the section given), stored for an API deployment
   * so a restart keeps it. Rejects (changing nothing) when a `${VAR}` reference cannot be resolved with
   * the process's environment.
   */
  async updateSection<K extends "budget" | "health" | "mission">(
    name: string,
    key: K,
    change: { section: ProcessConfigInput[K] | ProcessConfig[K]; raw?: Record<string, unknown> },
  ): Promise<void> {
    const process = this.require(name);
    const section = parsedSection(name, key, change.section);
    process.resolveReferences(section); // throws, changing nothing, when a reference cannot resolve
    const raw = change.raw ?? { ...change.section };
    const record = this.#stored.get(name);
    if (record && this.#store) {
      const next = { ...record, config: { ...record.config, [key]: raw } };
      await this.#store.save(next);
      this.#stored.set(name, next);
    }
    process.updateConfig({ ...process.config, [key]: section });
  }

  /** Stops and unregisters a process and forgets its stored deployment. Its journal entries stay. */
  async remove(name: string): Promise<void> {
    const process = this.require(name);
    await process.close();
    this.#processes.delete(name);
    this.#observers.get(name)?.();
    this.#observers.delete(name);
    this.eventLog.emit("process.removed", { process: name, process_id: process.processId });
    if (this.#stored.delete(name)) await this.#store?.remove(name);
    await this.#spool.remove(name);
    this.logger.info("process removed", { process: name });
  }

  /** Starts every created, stopped or failed process; failures are logged, not raised. */
  async startAll(): Promise<void> {
    for (const name of [...this.#processes.keys()]) {
      try {
        await this.start(name);
      } catch (error) {
        this.logger.error("start-all: process failed to start", {
          process: name,
          error: describeError(error),
        });
      }
    }
  }

  /** Stops every started process; failures are logged, not raised. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#processes.keys()].map(async (name) => {
      try {
        await this.stop(name);
      } catch (error) {
        this.logger.error("stop-all: process failed to stop", { process: name, error: describeError(error) });
      }
    }));
  }

  /**
   * Brings back the deployments kept in the store: each is registered again with its id and deploy time,
   * then started (and suspended) when the operator last asked for that. Records that no longer parse, or
   * whose name is taken (for example by a manifest), are skipped with a warning and left in the store.
   * `env` resolves their `${VAR}` references (@default none resolves: not the runtime's host lookup).
   */
  restore(options: { env?: EnvLookup } = {}): Promise<{ restored: string[]; skipped: string[] }> {
    if (!this.#store) return Promise.resolve({ restored: [], skipped: [] });
    return restoreDeployments(this, { store: this.#store, env: options.env });
  }

  /**
   * Stops every process (without changing what is stored, so stored deployments come back on the next
   * start) and closes the journals.
   */
  async close(): Promise<void> {
    await Promise.all([...this.#processes.values()].map((p) => p.stop().catch(() => undefined)));
    for (const stop of this.#observers.values()) stop();
    this.#observers.clear();
    this.eventLog.close();
    await this.#journals.closeAll();
    await this.#spool.close();
    await this.#store?.close?.();
  }

  /**
   * Runs an operator's lifecycle operation, then stores the state it reached (before the caller answers).
   * A refused or failed operation stores nothing, so a restart never brings back a state the operator was
   * refused; a start that found the process suspended keeps it suspended.
   */
  async #operate(
    name: string,
    operation: (process: AgentProcess) => Promise<ProcessState>,
  ): Promise<ProcessState> {
    const process = this.require(name);
    const state = await operation(process);
    await this.#saveDesired(name, desiredOf(state));
    return state;
  }

  /** Stores a state governance chose; a failure is logged (nobody waits for an answer). */
  async #remember(name: string, desired: DesiredState): Promise<void> {
    try {
      await this.#saveDesired(name, desired);
    } catch (error) {
      this.logger.warning("could not store the desired state", {
        process: name,
        error: describeError(error),
      });
    }
  }

  async #saveDesired(name: string, desired: DesiredState): Promise<void> {
    const record = this.#stored.get(name);
    if (!record || !this.#store || record.desired_state === desired) return;
    const next = { ...record, desired_state: desired };
    await this.#store.save(next);
    this.#stored.set(name, next);
  }

  #openJournal(name: string, config: ProcessConfig, env: EnvLookup): ProcessJournal | undefined {
    const settings = config.journal;
    if (!settings || settings.level === "none") return undefined;
    try {
      const rawPath = settings.path === undefined ? undefined : resolveEnvReferences(settings.path, env);
      const path = resolve(rawPath ?? resolve(this.dataDir, "journal"));
      const journal = this.#journals.open({ backend: settings.backend, path, logger: this.logger });
      return new ProcessJournal(journal, {
        process: name,
        level: settings.level,
        logger: this.logger.child("journal"),
      });
    } catch (error) {
      throw deployFailed(`the journal of ${name} could not be opened`, { process: name, cause: error });
    }
  }
}

/** The state to bring a process back to after a restart, from the state an operation reached. */
function desiredOf(state: ProcessState): DesiredState {
  if (state === "suspended") return "suspended";
  return STARTED_STATES.has(state) ? "running" : "stopped";
}

function processExists(name: string): RuntimeError {
  return new RuntimeError("PROCESS_EXISTS", `a process named ${name} is already registered`, {
    details: { process: name },
  });
}

function deployFailed(message: string, options: { process: string; cause: unknown }): RuntimeError {
  return new RuntimeError("DEPLOY_FAILED", message, {
    cause: options.cause,
    details: { process: options.process },
  });
}
