/**
 * `RuntimeError`: the one error class of runtime and trigger operations that callers (the control API
 * among them) tell apart, by a stable `code`. Its messages are safe to log; API answers use fixed texts.
 *
 * @example
 * ```ts
 * import { AgentRuntime, RuntimeError } from "@agentry/agentry";
 * try {
 *   await new AgentRuntime().start("nope");
 * } catch (error) {
 *   if (error instanceof RuntimeError && error.code === "PROCESS_NOT_FOUND") console.log(error.details.process);
 * }
 * ```
 *
 * @module
 */

import type { ConfigIssue } from "./config/mod.ts";
import type { ProcessState } from "./lifecycle.ts";

/** Operations that a state can refuse. */
export type ProcessOperation = "start" | "stop" | "restart" | "suspend" | "resume";

/** What each code carries in `details`. */
export interface RuntimeErrorDetails {
  /** A name is already registered in the runtime. */
  PROCESS_EXISTS: { process: string };
  /** No process has this name. */
  PROCESS_NOT_FOUND: { process: string };
  /** The operation is not allowed in the current state (for example suspending a stopped process). */
  INVALID_STATE: {
    process: string;
    operation: ProcessOperation;
    state: ProcessState;
    allowedFrom: readonly ProcessState[];
  };
  /** A start failed for process reasons (unresolvable reference, a part that would not start). */
  START_FAILED: { process: string };
  /** A valid config could not become a process (for example its journal could not be opened). */
  DEPLOY_FAILED: { process: string };
  /**
   * A config a deploy was given is not valid: its schema, the runtime's `checkConfig`, or a `${VAR}`
   * reference that is not set or resolves to a value its field refuses. `issues` name each field (relative
   * to the config) and rule, never a value. Nothing was registered.
   */
  INVALID_CONFIG: { process: string; issues: readonly ConfigIssue[] };
  /** An identical trigger is already configured; `triggerId` is its id. */
  TRIGGER_EXISTS: { triggerId: string };
  /** No trigger has this id. */
  TRIGGER_NOT_FOUND: { triggerId: string };
  /** A context write named keys that are not writable; `keys` lists every refused key. Nothing was written. */
  WRITE_DENIED: { keys: string[] };
  /** A context write would make the state too large, or holds a value that is not JSON. Nothing was written. */
  CONTEXT_INVALID: { field: string; expected: string };
  /** A secret operation on a process without secret scoping. */
  SECRETS_DISABLED: { process: string };
  /** No secret has this name. */
  SECRET_NOT_FOUND: { secretName: string };
  /** A rotation could not be applied (empty value, bad ttl, secrets not resolved or revoked). */
  ROTATION_FAILED: { secretName: string };
  // --- Inbox (issue 12) ---
  /** An inbox operation on a process without an inbox (`inbox.enabled` false). */
  INBOX_DISABLED: { process: string };
  /** A message or question to a stopped or failed process. */
  PROCESS_NOT_RUNNING: { process: string; state: ProcessState };
  /** An unknown `message_type`. */
  INVALID_TYPE: { field: string; expected: string };
  /** Another bad message field (empty content, unknown priority, bad ttl or timeout). */
  INVALID_FIELD: { field: string; expected: string };
  /** The sender queued `rate_limit_per_sender` messages in the last hour. */
  RATE_LIMITED: { process: string; senderId: string };
  /** The guardrail scan flagged the message (`categories` are the scanner's, never the text). */
  MESSAGE_REJECTED: { process: string; categories: string[] };
  /** The inbox is full and nothing may be evicted for the new message. */
  INBOX_FULL: { process: string };
  /** The question a caller waits on was evicted or cleared. */
  QUESTION_REMOVED: { process: string; questionId: string; reason: "evicted" | "cleared" };
  // --- Rewind (issue 13) ---
  /** A rewind on a process that keeps no journal. */
  JOURNAL_DISABLED: { process: string };
  /** No journal entry of the process has this id. */
  ENTRY_NOT_FOUND: { process: string; entryId: string };
  /** A run was still in flight after the rewind waited `waitMs`; nothing was rewound. */
  REWIND_BUSY: { process: string; waitMs: number };
  // --- Health (issue 13) ---
  /** A health operation on a process without health monitoring (`health.enabled` false). */
  HEALTH_DISABLED: { process: string };
  // --- Mission (issue 13) ---
  /** A mission operation on a process without a mission (`mission.enabled` false). */
  MISSION_DISABLED: { process: string };
  /** A mission operation not allowed in the mission's state (spec 000's table). */
  MISSION_STATE: {
    process: string;
    operation: "fail" | "pause" | "resume";
    state: string;
    allowedFrom: readonly string[];
  };
}

/** The stable codes of {@linkcode RuntimeError}. */
export type RuntimeErrorCode = keyof RuntimeErrorDetails;

/** Options for {@linkcode RuntimeError}. */
export interface RuntimeErrorOptions<C extends RuntimeErrorCode> extends ErrorOptions {
  /** What the code carries. */
  details: RuntimeErrorDetails[C];
}

/** A runtime or trigger operation failed for a reason named by `code`. */
export class RuntimeError<C extends RuntimeErrorCode = RuntimeErrorCode> extends Error {
  /** Stable code. */
  readonly code: C;
  /** What the code carries, e.g. `{ process, operation, state, allowedFrom }` for INVALID_STATE. */
  readonly details: RuntimeErrorDetails[C];

  /** An error with a log-safe message, its code's details and an optional cause. */
  constructor(code: C, message: string, options: RuntimeErrorOptions<C>) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RuntimeError";
    this.code = code;
    this.details = options.details;
  }
}

/** Whether `value` is a {@linkcode RuntimeError} with this code (which types its `details`). */
export function isRuntimeError<C extends RuntimeErrorCode>(
  value: unknown,
  code: C,
): value is RuntimeError<C> {
  return value instanceof RuntimeError && value.code === code;
}
