/**
 * The error the client raises for 4xx and 5xx answers, and when no answer came.
 *
 * @module
 */

/**
 * A 4xx or 5xx answer from the control API, or no answer at all: `statusCode` 0 with code `UNREACHABLE`
 * (nothing listening, a host name that does not resolve) or `TIMEOUT` (no answer within the client's
 * timeout), the network error as `cause`.
 */
export class RuntimeApiError extends Error {
  /** HTTP status; 0 when no answer came. */
  readonly statusCode: number;
  /**
   * The API error code (`UNREACHABLE` or `TIMEOUT` when no answer came), or null when the body is not an
   * API error.
   */
  readonly code: string | null;
  /** The API error message (or the raw body, shortened, when it is not an API error). */
  readonly errorMessage: string;
  /** The API error id, when the answer has one. */
  readonly errorId: string | null;
  /** Offending fields, when the answer lists them. */
  readonly details: Array<{ field: string; expected: string }>;

  /** An error for an answer with `statusCode` and the parsed error body. */
  constructor(
    statusCode: number,
    body: {
      code: string | null;
      message: string;
      errorId: string | null;
      details?: RuntimeApiError["details"];
      /** The error behind it (the network error when no answer came). */
      cause?: unknown;
    },
  ) {
    const prefix = statusCode === 0 ? "" : `${statusCode}${body.code ? ` ${body.code}` : ""}: `;
    super(`${prefix}${body.message}`, body.cause === undefined ? undefined : { cause: body.cause });
    this.name = "RuntimeApiError";
    this.statusCode = statusCode;
    this.code = body.code;
    this.errorMessage = body.message;
    this.errorId = body.errorId;
    this.details = body.details ?? [];
  }

  /** Builds the error from a status and a response text. */
  static fromAnswer(statusCode: number, text: string): RuntimeApiError {
    try {
      const parsed = JSON.parse(text) as { error?: Record<string, unknown> };
      const error = parsed?.error;
      if (error && typeof error.code === "string" && typeof error.message === "string") {
        return new RuntimeApiError(statusCode, {
          code: error.code,
          message: error.message,
          errorId: typeof error.error_id === "string" ? error.error_id : null,
          details: Array.isArray(error.details) ? error.details as RuntimeApiError["details"] : undefined,
        });
      }
    } catch {
      // not JSON: fall through
    }
    return new RuntimeApiError(statusCode, { code: null, message: text.slice(0, 500), errorId: null });
  }
}
