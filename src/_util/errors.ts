/**
 * Helpers for unknown thrown values.
 *
 * @module
 */

/** A thrown value as an Error (wrapping non-Error values). */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** `<ErrorName>: <message>` for logs (never for API answers). */
export function describeError(value: unknown): string {
  const error = asError(value);
  return `${error.name}: ${error.message}`;
}

/**
 * A field-level hint an error may carry for the operator: which field of their config is at fault and what
 * it needs. Unlike an error's message it is written to be answered (our words, no secret, no exception
 * text), e.g. `{ field: "config.model", expected: "OPENAI_API_KEY set in the runtime's environment" }`.
 */
export interface PublicDetail {
  /** Path of the field at fault. */
  field: string;
  /** What it needs. */
  expected: string;
}

/** The {@link PublicDetail}s an error and its causes carry (`publicDetail` fields), outermost first. */
export function publicDetails(error: unknown): PublicDetail[] {
  const found: PublicDetail[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const detail = (current as Error & { publicDetail?: unknown }).publicDetail;
    if (isPublicDetail(detail)) found.push({ field: detail.field, expected: detail.expected });
    current = current.cause;
  }
  return found;
}

function isPublicDetail(value: unknown): value is PublicDetail {
  if (typeof value !== "object" || value === null) return false;
  const { field, expected } = value as Record<string, unknown>;
  return typeof field === "string" && typeof expected === "string";
}
