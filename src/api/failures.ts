/**
 * Turning runtime exceptions into API errors: the one place where a {@linkcode RuntimeError}'s code
 * becomes an answer. Failures answer a fixed message and an error id that links the answer to the log
 * line holding the cause.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import { describeError, publicDetails } from "../_util/errors.ts";
import {
  isRuntimeError,
  type ProcessOperation,
  type RuntimeError,
  type RuntimeErrorCode,
} from "../runtime/mod.ts";
import { ApiError, ERROR_STATUS, type ErrorDetail, FIXED_MESSAGES, newErrorId } from "./errors.ts";

/** Codes answered with a fixed message. */
export type FailureCode = keyof typeof FIXED_MESSAGES;

/** The failure code of each lifecycle operation. */
export const OPERATION_FAILURE: Readonly<Record<ProcessOperation, FailureCode>> = {
  start: "START_FAILED",
  stop: "STOP_FAILED",
  restart: "RESTART_FAILED",
  suspend: "SUSPEND_FAILED",
  resume: "RESUME_FAILED",
};

/** Describes an error and its cause chain for the log (never for an answer). */
export function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    parts.push(describeError(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(" <- ");
}

/** Options for {@linkcode runtimeFailure}. */
export interface FailureOptions {
  /** The exception (logged with its cause chain, never answered). */
  cause: unknown;
  /** Where the failure is logged. */
  logger: Logger;
  /** Extra fields of the log line, e.g. `{ process }`. */
  fields?: Record<string, unknown>;
  /** Field list for `error.details`. */
  details?: ErrorDetail[];
}

/**
 * Logs the cause (ERROR for 5xx, WARNING otherwise) with a new error id and returns the API error to
 * answer, whose message is fixed.
 */
export function runtimeFailure(code: FailureCode, options: FailureOptions): ApiError {
  const { cause, logger, fields = {}, details } = options;
  const errorId = newErrorId();
  const level = ERROR_STATUS[code] >= 500 ? "error" : "warning";
  logger.log(level, FIXED_MESSAGES[code], { ...fields, code, error_id: errorId, cause: causeChain(cause) });
  return new ApiError(code, FIXED_MESSAGES[code], { errorId, cause, details });
}

/** Options for {@linkcode fromRuntime}. */
export interface FromRuntimeOptions {
  /** Where failures are logged. */
  logger: Logger;
  /** Fields of the failure's log line (default: the process, and the operation of INVALID_STATE). */
  fields?: Record<string, unknown>;
  /**
   * The failure code of the lifecycle operation being served, answered instead of START_FAILED or the
   * refused operation's code (a restart that could not start answers RESTART_FAILED).
   */
  failed?: FailureCode;
}

/** 409 PROCESS_EXISTS for a taken name. */
export function processExists(name: string): ApiError {
  return new ApiError("PROCESS_EXISTS", `A process named ${JSON.stringify(name)} is already registered.`);
}

/** 404 PROCESS_NOT_FOUND for a name no process has. */
export function processNotFound(name: string): ApiError {
  return new ApiError("PROCESS_NOT_FOUND", `No process is named ${JSON.stringify(name)}.`);
}

type Translation<C extends RuntimeErrorCode> = (
  error: RuntimeError<C>,
  options: FromRuntimeOptions,
) => ApiError;

const TRANSLATIONS: { [C in RuntimeErrorCode]: Translation<C> } = {
  PROCESS_EXISTS: (error) => processExists(error.details.process),
  PROCESS_NOT_FOUND: (error) => processNotFound(error.details.process),
  INVALID_STATE: (error, { logger, fields, failed }) => {
    const { process, operation, state, allowedFrom } = error.details;
    return runtimeFailure(failed ?? OPERATION_FAILURE[operation], {
      cause: error,
      logger,
      fields: fields ?? { process, operation },
      details: [{ field: "state", expected: `one of ${allowedFrom.join(", ")} (is ${state})` }],
    });
  },
  START_FAILED: (error, { logger, fields, failed }) => {
    // A cause the operator must fix (a model key not set, a webhook port in use) is named in `details`.
    const hints = publicDetails(error);
    return runtimeFailure(failed ?? "START_FAILED", {
      cause: error,
      logger,
      fields: fields ?? { process: error.details.process },
      details: hints.length > 0 ? hints : undefined,
    });
  },
  DEPLOY_FAILED: (error, { logger, fields }) =>
    runtimeFailure("DEPLOY_FAILED", {
      cause: error,
      logger,
      fields: fields ?? { process: error.details.process },
    }),
  // Library-side check of a deploy (the deploy route checks the schema itself; `${VAR}` values land here).
  INVALID_CONFIG: (error) => {
    const details = error.details.issues.map((issue) => ({
      field: issue.field === "(config)" ? "config" : `config.${issue.field}`,
      expected: issue.expected,
    }));
    return new ApiError(
      "INVALID_CONFIG",
      `The config is not valid: ${details.map((d) => d.field).join(", ")}.`,
      {
        details,
      },
    );
  },
  TRIGGER_EXISTS: (error) =>
    new ApiError("TRIGGER_EXISTS", "An identical trigger is already configured.", {
      details: [{ field: "trigger_id", expected: `a trigger other than ${error.details.triggerId}` }],
    }),
  TRIGGER_NOT_FOUND: () => new ApiError("TRIGGER_NOT_FOUND", "No trigger of this process has that id."),
  WRITE_DENIED: (error) =>
    new ApiError(
      "WRITE_DENIED",
      `Context keys not writable: ${error.details.keys.join(", ")}. Nothing was written.`,
      {
        details: error.details.keys.map((key) => ({ field: `state.${key}`, expected: "a writable key" })),
      },
    ),
  CONTEXT_INVALID: (error) =>
    new ApiError("INVALID_FIELD", "The context state was not written: a value is not allowed.", {
      details: [{
        field: error.details.field === "state" ? "state" : `state.${error.details.field}`,
        expected: error.details.expected,
      }],
    }),
  SECRETS_DISABLED: () =>
    new ApiError("SECRETS_DISABLED", "This process has no secret scoping (secrets.enabled is false)."),
  // Rewind (issue 13)
  JOURNAL_DISABLED: () =>
    new ApiError("JOURNAL_DISABLED", "This process keeps no journal (journal.level is none)."),
  ENTRY_NOT_FOUND: () => new ApiError("ENTRY_NOT_FOUND", "No journal entry of this process has this id."),
  REWIND_BUSY: (error) =>
    new ApiError(
      "REWIND_BUSY",
      `A run was still in flight after ${error.details.waitMs / 1000} s; nothing was rewound. Try again.`,
    ),
  // Health (issue 13)
  HEALTH_DISABLED: () =>
    new ApiError("HEALTH_DISABLED", "This process has no health monitoring (health.enabled is false)."),
  // Mission (issue 13)
  MISSION_DISABLED: () =>
    new ApiError("MISSION_DISABLED", "This process has no mission (mission.enabled is false)."),
  MISSION_STATE: (error) =>
    new ApiError(
      "MISSION_STATE",
      `Cannot ${error.details.operation} a mission in state ${error.details.state}; allowed from: ${
        error.details.allowedFrom.join(", ")
      }.`,
    ),
  SECRET_NOT_FOUND: () => new ApiError("SECRET_NOT_FOUND", "No secret of this process has that name."),
  ROTATION_FAILED: (error, { logger, fields }) =>
    runtimeFailure("ROTATION_FAILED", {
      cause: error,
      logger,
      fields: fields ?? { secret: error.details.secretName },
    }),
  // --- Inbox (issue 12): refusals answer a fixed message and an error id; field errors name the field.
  INBOX_DISABLED: (error, { logger, fields }) => inboxRefusal(error, logger, fields),
  PROCESS_NOT_RUNNING: (error, { logger, fields }) => inboxRefusal(error, logger, fields),
  RATE_LIMITED: (error, { logger, fields }) => inboxRefusal(error, logger, fields),
  MESSAGE_REJECTED: (error, { logger, fields }) =>
    inboxRefusal(error, logger, { categories: error.details.categories, ...fields }),
  INBOX_FULL: (error, { logger, fields }) => inboxRefusal(error, logger, fields),
  QUESTION_REMOVED: (error, { logger, fields }) =>
    inboxRefusal(error, logger, {
      question_id: error.details.questionId,
      reason: error.details.reason,
      ...fields,
    }),
  INVALID_TYPE: (error) =>
    new ApiError("INVALID_TYPE", `\`${error.details.field}\` must be ${error.details.expected}.`, {
      details: [{ field: error.details.field, expected: error.details.expected }],
    }),
  INVALID_FIELD: (error) =>
    new ApiError("INVALID_FIELD", `\`${error.details.field}\` must be ${error.details.expected}.`, {
      details: [{ field: error.details.field, expected: error.details.expected }],
    }),
};

type InboxRefusalCode =
  | "INBOX_DISABLED"
  | "PROCESS_NOT_RUNNING"
  | "RATE_LIMITED"
  | "MESSAGE_REJECTED"
  | "INBOX_FULL"
  | "QUESTION_REMOVED";

/** An inbox refusal: the code's fixed message, logged as a warning with the process (never the content). */
function inboxRefusal(
  error: RuntimeError<InboxRefusalCode>,
  logger: Logger,
  fields?: Record<string, unknown>,
): ApiError {
  return runtimeFailure(error.code, {
    cause: error,
    logger,
    fields: { process: error.details.process, ...fields },
  });
}

/** The API error answering a runtime error, by its code. */
export function fromRuntime(error: RuntimeError, options: FromRuntimeOptions): ApiError {
  return (TRANSLATIONS[error.code] as Translation<RuntimeErrorCode>)(error, options);
}

/**
 * The API error answering a failed lifecycle operation on `process`: the operation's failure code
 * (with the allowed states when the state refused it), or 404 PROCESS_NOT_FOUND when the process was
 * removed while the operation waited for the one before it. Suspend and resume only fail by refusal or a
 * failed start; anything else they throw is an INTERNAL_ERROR.
 */
export function operationFailure(
  operation: ProcessOperation,
  error: unknown,
  options: { logger: Logger; process: string },
): ApiError {
  const { logger, process } = options;
  const fields = { process, operation };
  const failed = OPERATION_FAILURE[operation];
  // Removal won over this queued operation (issue 14 item 2): the process is gone, as a later call would hear.
  if (isRuntimeError(error, "PROCESS_NOT_FOUND")) return fromRuntime(error, { logger });
  if (isRuntimeError(error, "INVALID_STATE") || isRuntimeError(error, "START_FAILED")) {
    return fromRuntime(error, { logger, fields, failed });
  }
  const refusable = operation === "suspend" || operation === "resume";
  return runtimeFailure(refusable ? "INTERNAL_ERROR" : failed, { cause: error, logger, fields });
}
