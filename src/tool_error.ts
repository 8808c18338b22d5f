/**
 * Tool errors: what a tool client sees when a call fails.
 *
 * A failed call answers with a tool result whose `isError` is true and whose one text block is the
 * pretty-printed JSON envelope `{"error":{"code","message","retryable","suggestion"?,"details"?}}`.
 * Only {@linkcode ToolError}s reach the client as written; any other exception becomes a generic
 * `INTERNAL_ERROR` and its text stays in the server log.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The stable error codes the framework itself raises. Handlers may use their own codes too. */
export const TOOL_ERROR_CODES = [
  "TOOL_NOT_FOUND",
  "VALIDATION_ERROR",
  "INTERNAL_ERROR",
  "TOOL_ERROR",
  "RESOURCE_ERROR",
  "PROMPT_ERROR",
  "AUTHENTICATION_ERROR",
  "ACCESS_DENIED",
  "RATE_LIMIT_EXCEEDED",
  "CONCURRENCY_LIMIT_EXCEEDED",
  "TIMEOUT",
  "CIRCUIT_OPEN",
  "APPROVAL_DENIED",
  "NOT_FOUND",
  "MISSING_CLIENT_CAPABILITY",
  "LIVE_SESSION_REQUIRED",
] as const;

/** One of {@linkcode TOOL_ERROR_CODES}. */
export type ToolErrorCode = typeof TOOL_ERROR_CODES[number];

/** Options for {@linkcode ToolError}. */
export interface ToolErrorOptions {
  /** Whether retrying the same call later may succeed. @default false */
  retryable?: boolean;
  /** A hint for the agent, e.g. "Wait 3 seconds before retrying". */
  suggestion?: string;
  /** Machine-readable details; sent only when non-empty. */
  details?: Record<string, unknown>;
  /** The underlying error, for the server log only. */
  cause?: unknown;
}

/** The JSON envelope a failed tool call carries. */
export interface ToolErrorPayload {
  /** The error itself. */
  error: {
    code: string;
    message: string;
    retryable: boolean;
    suggestion?: string;
    details?: Record<string, unknown>;
  };
}

/**
 * An error meant for the tool client. Throw it from a handler, guard or middleware to answer with
 * that code and message.
 *
 * @example
 * ```ts
 * import { ToolError } from "@agentry/agentry/mcp";
 * throw new ToolError("NOT_FOUND", "No order 42", { suggestion: "List orders first" });
 * ```
 */
export class ToolError extends Error {
  /** Stable code, e.g. `ACCESS_DENIED`. */
  readonly code: string;
  /** Whether retrying later may succeed. */
  readonly retryable: boolean;
  /** Hint for the agent. */
  readonly suggestion?: string;
  /** Machine-readable details. */
  readonly details: Record<string, unknown>;

  /** An error with `code` and a client-safe `message`. */
  constructor(
    code: ToolErrorCode | (string & Record<never, never>),
    message: string,
    options: ToolErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.suggestion = options.suggestion;
    this.details = options.details ?? {};
  }

  /** The wire envelope. */
  toPayload(): ToolErrorPayload {
    const error: ToolErrorPayload["error"] = {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
    };
    if (this.suggestion) error.suggestion = this.suggestion;
    if (Object.keys(this.details).length > 0) error.details = this.details;
    return { error };
  }
}

/** Codes of refusals caused by the caller or by protection layers; they never trip a circuit breaker. */
export const CALLER_SIDE_CODES: ReadonlySet<string> = new Set([
  "AUTHENTICATION_ERROR",
  "ACCESS_DENIED",
  "VALIDATION_ERROR",
  "RATE_LIMIT_EXCEEDED",
  "CONCURRENCY_LIMIT_EXCEEDED",
  "APPROVAL_DENIED",
  "CIRCUIT_OPEN",
  "TOOL_NOT_FOUND",
]);

/**
 * Whether an error counts as an upstream failure for a circuit breaker: every non-{@linkcode ToolError},
 * and retryable tool errors other than the caller-side kinds.
 */
export function countsAsFailure(error: unknown): boolean {
  if (!(error instanceof ToolError)) return true;
  return error.retryable && !CALLER_SIDE_CODES.has(error.code);
}

/** The generic answer for unexpected exceptions; the exception's text never reaches the client. */
export function internalError(cause?: unknown): ToolError {
  return new ToolError("INTERNAL_ERROR", "An internal error occurred.", { cause });
}

/** `error` as a tool result: `isError: true` and the envelope as indented JSON text. */
export function errorResult(error: ToolError): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(error.toPayload(), null, 2) }], isError: true };
}
