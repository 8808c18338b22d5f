/**
 * Query-string checks shared by the list routes: unknown parameters and a bounded `limit`.
 *
 * @module
 */

import { ApiError } from "../errors.ts";

/** Throws 422 UNKNOWN_FIELD naming every query parameter not in `allowed`. */
export function refuseUnknownQuery(query: Record<string, string[]>, allowed: readonly string[]): void {
  const unknown = Object.keys(query).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return;
  throw new ApiError("UNKNOWN_FIELD", `Unknown query parameter(s): ${unknown.join(", ")}.`, {
    details: unknown.map((field) => ({
      field,
      expected: `no such parameter; allowed: ${allowed.join(", ")}`,
    })),
  });
}

/** The last `limit` value as an integer from 1 to `max` (`fallback` when absent); else 422 INVALID_FIELD. */
export function queryLimit(values: string[] | undefined, bounds: { max: number; fallback: number }): number {
  if (values === undefined) return bounds.fallback;
  const text = values.at(-1) ?? "";
  const value = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= bounds.max)) {
    throw new ApiError("INVALID_FIELD", `\`limit\` must be an integer from 1 to ${bounds.max}.`, {
      details: [{ field: "limit", expected: `an integer from 1 to ${bounds.max}` }],
    });
  }
  return value;
}
