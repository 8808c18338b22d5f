/**
 * {@linkcode GuardrailViolation}: the error a scanner (or a run) throws when guardrails block text.
 *
 * @module
 */

/** Stable code of {@linkcode GuardrailViolation}. */
export const GUARDRAIL_VIOLATION = "GUARDRAIL_VIOLATION";

/** How a {@linkcode GuardrailViolation} is built. */
export interface GuardrailViolationOptions {
  /** The message. @default "blocked by guardrails: <categories>" */
  message?: string;
  /** The error that led to it. */
  cause?: unknown;
}

/**
 * Text was blocked by guardrails. Scanner objects may throw it (or any error named
 * `GuardrailViolation`, or with `code: "GUARDRAIL_VIOLATION"`) to flag text; the runtime dead-letters
 * the event as `blocked by guardrails` without counting a failure.
 *
 * @example
 * ```ts
 * import { GuardrailViolation } from "./guardrail_violation.ts";
 * const error = new GuardrailViolation(["instruction_override"]);
 * console.log(error.code, error.categories, error.message);
 * ```
 */
export class GuardrailViolation extends Error {
  /** Always {@linkcode GUARDRAIL_VIOLATION}. */
  readonly code: typeof GUARDRAIL_VIOLATION = GUARDRAIL_VIOLATION;
  /** What was found, sorted and unique. */
  readonly categories: string[];

  /** Builds the error for `categories` (sorted, duplicates dropped). */
  constructor(categories: readonly string[], options: GuardrailViolationOptions = {}) {
    const sorted = [...new Set(categories)].sort();
    super(options.message ?? `blocked by guardrails: ${sorted.join(", ") || "flagged"}`, {
      cause: options.cause,
    });
    this.name = "GuardrailViolation";
    this.categories = sorted;
  }
}

/** True for a {@linkcode GuardrailViolation} or an error that looks like one (by name or code). */
export function isGuardrailViolation(value: unknown): value is Error & { categories?: unknown } {
  if (value instanceof GuardrailViolation) return true;
  if (typeof value !== "object" || value === null) return false;
  const record = value as { name?: unknown; code?: unknown; constructor?: { name?: unknown } };
  return record.name === "GuardrailViolation" || record.code === GUARDRAIL_VIOLATION ||
    record.constructor?.name === "GuardrailViolation";
}
