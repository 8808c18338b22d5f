/**
 * The view of a process that governance (budget, health, mission) acts on: its name, config and journal, and
 * a suspend and a stop that also tell the runtime, so the state governance chose is the one a restarted
 * runtime brings back.
 *
 * @module
 */

import type { ProcessJournal } from "../journal/mod.ts";
import type { ProcessConfig } from "./config/mod.ts";
import type { EscalateFunction } from "./escalator.ts";

/** What governance may see and do of its process. */
export interface GovernedHost {
  /** Process name. */
  readonly name: string;
  /** Process id. */
  readonly processId: string;
  /** The current config (live patches included). */
  readonly config: ProcessConfig;
  /** The process journal. */
  readonly journal: ProcessJournal | undefined;
  /** Resolves `${VAR}` references with the process's environment. */
  resolveReferences<T>(value: T): T;
  /** Suspends the process; rejects when it is not running or awaiting. */
  suspend(reason: string): Promise<unknown>;
  /** Stops the process. */
  stop(reason: string): Promise<unknown>;
  /** Delivers an escalation (webhook and/or event; see `Escalator`). Never rejects. */
  escalate: EscalateFunction;
}

/** The process as {@linkcode governedHost} needs it. */
export type GovernedProcess =
  & Pick<GovernedHost, "name" | "processId" | "config" | "journal" | "resolveReferences">
  & {
    suspend(reason: string): Promise<unknown>;
  };

/** A host whose suspend and stop report the state reached through `onGovernedState`. */
export function governedHost(
  process: GovernedProcess,
  options: {
    stop: (reason: string) => Promise<unknown>;
    onGovernedState?: (state: "suspended" | "stopped") => void;
    /** Delivers the process's escalations (its `Escalator`). */
    escalate: EscalateFunction;
  },
): GovernedHost {
  const told = options.onGovernedState ?? (() => {});
  return {
    name: process.name,
    processId: process.processId,
    get config() {
      return process.config;
    },
    get journal() {
      return process.journal;
    },
    resolveReferences: (value) => process.resolveReferences(value),
    suspend: (reason) => process.suspend(reason).then((state) => (told("suspended"), state)),
    stop: (reason) => options.stop(reason).then((state) => (told("stopped"), state)),
    escalate: options.escalate,
  };
}
