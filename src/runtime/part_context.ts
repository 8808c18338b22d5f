/**
 * Building the {@linkcode PartContext} a process hands its parts at each start.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import type { ProcessJournal } from "../journal/mod.ts";
import type { ProcessConfig } from "./config/mod.ts";
import type { ProcessState, StateTransition } from "./lifecycle.ts";
import type { PartContext, ProcessPart } from "./process_parts.ts";
import type { SecretStore } from "./secrets/secret_store.ts";

/** The public side of a process that parts see. */
export interface PartProcess {
  readonly name: string;
  readonly processId: string;
  readonly secrets: SecretStore;
  readonly config: ProcessConfig;
  readonly state: ProcessState;
  readonly journal: ProcessJournal | undefined;
  touch(reason: string): void;
  part(name: string): ProcessPart | undefined;
  setInstructions(instructions: string): void;
}

/** What only the process itself can give its parts. */
export interface PartInternals {
  /** The resolved config of this start. */
  resolved: ProcessConfig;
  /** The process logger. */
  logger: Logger;
  /** The data directory, absolute. */
  dataDir: string;
  /** Queues an event (see {@linkcode PartContext.deliver}). */
  deliver: PartContext["deliver"];
  /** Records an accepted event (see {@linkcode PartContext.accept}). */
  accept: PartContext["accept"];
  /** Subscribes to transitions until the parts stop. */
  onTransition(listener: (transition: StateTransition) => void): () => void;
}

/** The context of one start of `process`. */
export function partContext(process: PartProcess, internals: PartInternals): PartContext {
  return {
    name: process.name,
    processId: process.processId,
    secrets: process.secrets,
    config: internals.resolved,
    deployedConfig: process.config,
    get state() {
      return process.state;
    },
    journal: process.journal,
    logger: internals.logger,
    touch: (reason) => process.touch(reason),
    deliver: internals.deliver,
    accept: internals.accept,
    onTransition: internals.onTransition,
    // open mode (issue 12)
    dataDir: internals.dataDir,
    part: (name) => process.part(name),
    instructions: () => process.config.instructions,
    setInstructions: (instructions) => process.setInstructions(instructions),
  };
}
