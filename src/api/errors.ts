/**
 * The control API's error envelope: `{error: {code, message, error_id?, details?}}`.
 *
 * Errors caused by an exception inside the runtime carry a fixed message (never the exception's text)
 * and an `error_id` that also appears on the server log line describing the cause.
 *
 * @module
 */

import { randomHex } from "../_util/ids.ts";

/** HTTP status of each error code (HTTP_ERROR takes the status of the underlying HTTP error). */
export const ERROR_STATUS = {
  HEALTH_DISABLED: 400,
  INBOX_DISABLED: 400,
  INVALID_JSON: 400,
  JOURNAL_DISABLED: 400,
  MISSION_DISABLED: 400,
  OPEN_MODE_DISABLED: 400,
  RESUME_FAILED: 400,
  ROTATION_FAILED: 400,
  SECRETS_DISABLED: 400,
  SUSPEND_FAILED: 400,
  UNAUTHORIZED: 401,
  COMMANDS_NOT_ALLOWED: 403,
  CROSS_ORIGIN_REFUSED: 403,
  ENV_REFERENCES_NOT_ALLOWED: 403,
  PATH_NOT_ALLOWED: 403,
  WRITE_DENIED: 403,
  ENTRY_NOT_FOUND: 404,
  NOT_FOUND: 404,
  PROCESS_NOT_FOUND: 404,
  SECRET_NOT_FOUND: 404,
  TRIGGER_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INBOX_FULL: 409,
  MISSION_STATE: 409,
  PROCESS_EXISTS: 409,
  PROCESS_NOT_RUNNING: 409,
  REWIND_BUSY: 409,
  TRIGGER_EXISTS: 409,
  QUESTION_REMOVED: 410,
  PAYLOAD_TOO_LARGE: 413,
  MISDIRECTED_REQUEST: 421,
  DEPLOY_FAILED: 422,
  INVALID_CONFIG: 422,
  INVALID_FIELD: 422,
  INVALID_NAME: 422,
  INVALID_TYPE: 422,
  MESSAGE_REJECTED: 422,
  MISSING_FIELD: 422,
  UNKNOWN_FIELD: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  RESTART_FAILED: 500,
  START_FAILED: 500,
  STOP_FAILED: 500,
} as const;

/** An error code with a fixed status. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Fixed messages for errors caused by runtime exceptions. */
export const FIXED_MESSAGES = {
  DEPLOY_FAILED: "The configuration is valid but the process could not be created.",
  START_FAILED: "The process could not be started.",
  STOP_FAILED: "The process could not be stopped.",
  RESTART_FAILED: "The process could not be restarted.",
  SUSPEND_FAILED: "The process cannot be suspended in its current state.",
  RESUME_FAILED: "The process cannot be resumed in its current state.",
  ROTATION_FAILED: "The secret could not be rotated.",
  INTERNAL_ERROR: "An unexpected error occurred.",
  // Inbox refusals (issue 12).
  INBOX_DISABLED: "This process has no inbox (inbox.enabled is false).",
  PROCESS_NOT_RUNNING: "The process is stopped or failed and takes no messages.",
  RATE_LIMITED: "This sender has queued too many messages in the last hour.",
  MESSAGE_REJECTED: "The message was rejected by the guardrail scan.",
  INBOX_FULL: "The inbox is full and no message may be evicted for this one.",
  QUESTION_REMOVED: "The question was removed from the inbox before it was answered.",
} as const;

/** One entry of `error.details` for INVALID_CONFIG and field errors. */
export interface ErrorDetail {
  /** JSON path of the offending field. */
  field: string;
  /** What was expected there. */
  expected: string;
}

/** The body of every error answer. */
export interface ErrorBody {
  /** The error. */
  error: {
    /** Stable code. */
    code: string;
    /** Human message. */
    message: string;
    /** Links the answer to the server log line (runtime exceptions only). */
    error_id?: string;
    /** Offending fields (INVALID_CONFIG and other field errors). */
    details?: ErrorDetail[];
  };
}

/** Options for {@linkcode ApiError}. */
export interface ApiErrorOptions {
  /** Field list for `error.details`. */
  details?: ErrorDetail[];
  /** Error id (runtime exceptions). */
  errorId?: string;
  /** Extra headers, e.g. `Allow` on 405. */
  headers?: Record<string, string>;
  /** The underlying cause (logged, never answered). */
  cause?: unknown;
}

/** An error answered with the envelope. */
export class ApiError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Stable code. */
  readonly code: string;
  /** Field list. */
  readonly details: ErrorDetail[] | undefined;
  /** Error id. */
  readonly errorId: string | undefined;
  /** Extra headers. */
  readonly headers: Record<string, string>;

  /** An error with a code of fixed status. */
  constructor(code: ErrorCode, message: string, options?: ApiErrorOptions);
  /** An HTTP-level error carrying the underlying status. */
  constructor(code: "HTTP_ERROR", message: string, options: ApiErrorOptions & { status: number });
  constructor(code: string, message: string, options: ApiErrorOptions & { status?: number } = {}) {
    super(message, { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code as ErrorCode];
    this.details = options.details;
    this.errorId = options.errorId;
    this.headers = options.headers ?? {};
  }

  /** The JSON body. */
  body(): ErrorBody {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.errorId) error.error_id = this.errorId;
    if (this.details) error.details = this.details;
    return { error };
  }

  /** The HTTP answer. */
  toResponse(): Response {
    return Response.json(this.body(), { status: this.status, headers: this.headers });
  }
}

/** A new error id, `err_` and 16 hex characters. */
export function newErrorId(): string {
  return `err_${randomHex(8)}`;
}
