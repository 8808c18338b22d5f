/**
 * The options of an `AgentProcess` and its list summary.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import type { ProcessJournal } from "../journal/mod.ts";
import type { ProcessConfig } from "./config/mod.ts";
import type { EnvLookup, ProcessPartFactory, ProcessSource } from "./process_parts.ts";
import type { Invoker } from "./process_event.ts";
import type { ProcessState } from "./lifecycle.ts";
import type { RuntimeEvents } from "./escalator.ts";

/** Options for `AgentProcess`. */
export interface AgentProcessOptions {
  /** Process name (already checked against the name rule). */
  name: string;
  /** The parsed config, `${VAR}` references not yet resolved. */
  config: ProcessConfig;
  /** Where it came from. @default "library" */
  source?: ProcessSource;
  /** Process id. @default a new UUID */
  processId?: string;
  /** Deploy time in epoch seconds. @default now */
  createdAt?: number;
  /**
   * Resolves `${VAR}` references at start. @default the host environment, for the variables this Deno
   * process may read (it never prompts)
   */
  env?: EnvLookup;
  /** The process journal. */
  journal?: ProcessJournal;
  /** Logger the process writes to. @default a logger named `agentry.process` */
  logger?: Logger;
  /** Part factories, started in order and stopped in reverse. */
  parts?: readonly ProcessPartFactory[];
  /** Runs the agent for an event. @default none: events are dead-lettered as "no runner" */
  invoker?: Invoker;
  /** The runtime's data directory (the `file` memory provider defaults to `<dataDir>/memory/<name>`). @default "./.agentry" */
  dataDir?: string;
  /**
   * Told when governance (budget `on_exceeded`, a health anomaly, a mission's `on_complete`) suspends or
   * stops the process, so the runtime keeps that as the state to restore after a restart.
   */
  onGovernedState?: (state: "suspended" | "stopped") => void;
  /**
   * Where escalations with `escalation.event_type` are emitted (the runtime's `events`). @default none: they
   * are not emitted (the process warns once)
   */
  events?: RuntimeEvents;
}

/** Summary used in process lists. */
export interface ProcessSummary {
  /** Name. */
  name: string;
  /** Current state. */
  state: ProcessState;
  /** Process id. */
  process_id: string;
}
