/**
 * Turning runtime exceptions into API errors with a fixed message and an error id that links the
 * answer to the log line holding the cause.
 *
 * @module
 */

import type { Logger } from "../_util/log.ts";
import { describeError } from "../_util/errors.ts";
import { ApiError, ERROR_STATUS, FIXED_MESSAGES, newErrorId } from "./errors.ts";

/** Codes answered with a fixed message. */
export type FailureCode = keyof typeof FIXED_MESSAGES;

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

/**
 * Logs the cause (ERROR for 5xx, WARNING otherwise) with a new error id and returns the API error to
 * answer, whose message is fixed.
 */
export function runtimeFailure(
  code: FailureCode,
  cause: unknown,
  logger: Logger,
  fields: Record<string, unknown> = {},
  details?: Array<{ field: string; expected: string }>,
): ApiError {
  const errorId = newErrorId();
  const level = ERROR_STATUS[code] >= 500 ? "error" : "warning";
  logger.log(level, FIXED_MESSAGES[code], { ...fields, code, error_id: errorId, cause: causeChain(cause) });
  return new ApiError(code, FIXED_MESSAGES[code], { errorId, cause, details });
}
