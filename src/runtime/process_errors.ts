/**
 * Errors raised by process operations. Their messages are safe to log; API answers use fixed texts.
 *
 * @module
 */

import type { ProcessState } from "./lifecycle.ts";

/** Operations that a state can refuse. */
export type ProcessOperation = "start" | "stop" | "restart" | "suspend" | "resume";

/** The operation is not allowed in the current state (for example suspending a stopped process). */
export class ProcessStateError extends Error {
  /** What was asked. */
  readonly operation: ProcessOperation;
  /** The state that refused it. */
  readonly state: ProcessState;
  /** States from which the operation is allowed. */
  readonly allowedFrom: readonly ProcessState[];

  /** An error for `operation` refused in `state`. */
  constructor(operation: ProcessOperation, state: ProcessState, allowedFrom: readonly ProcessState[]) {
    super(`cannot ${operation} a process in state ${state}; allowed from: ${allowedFrom.join(", ")}`);
    this.name = "ProcessStateError";
    this.operation = operation;
    this.state = state;
    this.allowedFrom = allowedFrom;
  }
}

/** A start failed for process reasons (unresolvable reference, a part that would not start). */
export class ProcessStartError extends Error {
  /** An error with a log-safe message and an optional cause. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ProcessStartError";
  }
}

/** A name is already registered in the runtime. */
export class ProcessExistsError extends Error {
  /** The taken name. */
  readonly processName: string;

  /** An error about the process `name`. */
  constructor(name: string) {
    super(`a process named ${name} is already registered`);
    this.name = "ProcessExistsError";
    this.processName = name;
  }
}

/** No process has this name. */
export class ProcessNotFoundError extends Error {
  /** The unknown name. */
  readonly processName: string;

  /** An error about the process `name`. */
  constructor(name: string) {
    super(`no process named ${name}`);
    this.name = "ProcessNotFoundError";
    this.processName = name;
  }
}

/** A valid config could not become a process (for example its journal could not be opened). */
export class DeployError extends Error {
  /** An error with a log-safe message and an optional cause. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DeployError";
  }
}
