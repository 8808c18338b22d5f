/**
 * The seam through which capabilities (triggers, the agent, governance) plug into a process.
 * The runtime core knows nothing of them: a part is started with the process and stopped with it.
 *
 * @module
 */

import type { ProcessConfig } from "./config/mod.ts";
import type { Logger } from "../log.ts";
import type { ProcessJournal } from "../journal/mod.ts";
import type { ProcessState, StateTransition } from "./lifecycle.ts";
import type { ProcessEvent } from "./process_event.ts";
import type { SecretStore } from "./secrets/secret_store.ts";

/** Reads one environment variable; `undefined` when it is unset or not allowed. */
export type EnvLookup = (name: string) => string | undefined;

/** Where a process came from: the control API, a manifest on the host, or library code. */
export type ProcessSource = "api" | "manifest" | "library";

/** What a part may see of its process. */
export interface PartContext {
  /** Process name. */
  readonly name: string;
  /** Id of this incarnation (new on every deploy). */
  readonly processId: string;
  /** The process's secrets, resolved for this start. */
  readonly secrets: SecretStore;
  /** The config with `${VAR}` references resolved for this start. */
  readonly config: ProcessConfig;
  /** The config as deployed (references unresolved), e.g. for ids that must not depend on secrets. */
  readonly deployedConfig: ProcessConfig;
  /** Current state. */
  readonly state: ProcessState;
  /** The process journal, when it has one. */
  readonly journal: ProcessJournal | undefined;
  /** Logger named after the process. */
  readonly logger: Logger;
  /** Marks activity (a run, a message); wakes an awaiting process. */
  touch(reason: string): void;
  /**
   * Records the event in the process's event ledger and queues it for a run, waiting while the process
   * queue is full. An event accepted and not run is dead-lettered when the process stops.
   */
  deliver(event: ProcessEvent, signal?: AbortSignal): Promise<void>;
  /**
   * Records an accepted event in the process's event ledger (the spool's `events` log) without queueing
   * it; resolves once written (e.g. before a webhook answers 202), rejects when the write fails.
   * Idempotent by `event_id`. An accepted event runs once {@linkcode PartContext.deliver}ed, or is
   * dead-lettered when the process stops; after a crash it is queued again at the next start.
   */
  accept(event: ProcessEvent): Promise<void>;
  /** Subscribes to state transitions until the part stops; returns an unsubscribe function. */
  onTransition(listener: (transition: StateTransition) => void): () => void;
  // --- open mode (issue 12): what an open-mode agent changes about its own process ---
  /** The runtime's data directory, absolute (paths an agent adds must lie in it). */
  readonly dataDir: string;
  /** Another part of this start, by name (e.g. `triggers`), once started. */
  part(name: string): ProcessPart | undefined;
  /** The instructions the next run uses (live changes included). */
  instructions(): string;
  /** Replaces the instructions for the next runs, live only (never stored); see `AgentProcess.setInstructions`. */
  setInstructions(instructions: string): void;
  // --- end open mode ---
}

/** A capability started and stopped with the process. */
export interface ProcessPart {
  /** Key under which {@linkcode ProcessPart.status} appears in the status body. */
  readonly name: string;
  /** Starts the part; a rejection fails the process start. */
  start(): Promise<void>;
  /** Stops the part; a rejection is logged and the stop goes on. */
  stop(): Promise<void>;
  /** A JSON object merged into the process status under {@linkcode ProcessPart.name}. */
  status?(): Record<string, unknown>;
}

/** Builds a part for a start, or `undefined` when the config does not ask for it. */
export type ProcessPartFactory = (context: PartContext) => ProcessPart | undefined;
