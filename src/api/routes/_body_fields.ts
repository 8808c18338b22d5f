/**
 * Body field checks shared by the context and secret routes. Messages name fields, never their values.
 *
 * @module
 */

import { ApiError } from "../errors.ts";

/** Throws 422 UNKNOWN_FIELD naming every field of `body` not in `allowed`. */
export function refuseUnknownFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return;
  throw new ApiError("UNKNOWN_FIELD", `Unknown body field(s): ${unknown.join(", ")}.`, {
    details: unknown.map((field) => ({ field, expected: `no such field; allowed: ${allowed.join(", ")}` })),
  });
}

/** 422 MISSING_FIELD for `field`. */
export function missingField(field: string, expected: string): ApiError {
  return new ApiError("MISSING_FIELD", `The body needs \`${field}\`.`, { details: [{ field, expected }] });
}

/** 422 INVALID_FIELD for `field`. */
export function invalidField(field: string, expected: string): ApiError {
  return new ApiError("INVALID_FIELD", `\`${field}\` must be ${expected}.`, {
    details: [{ field, expected }],
  });
}
