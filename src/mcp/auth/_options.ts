/**
 * Checks for the option objects the auth providers take.
 *
 * @module
 */

import type { OptionKeysWording } from "../../_util/option_keys.ts";

/**
 * How the auth providers word option refusals (for `checkOptionKeys`): `<what> options must be an
 * object`, and an unknown key in double quotes with the allowed ones.
 */
export function authWording(what: string): OptionKeysWording {
  return { unknown: "quoted", notObject: `${what} options must be an object`, arrays: true };
}

/** `value` lower-cased, or a TypeError when it is not a non-empty string. */
export function headerName(value: unknown, what: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`${what}: header must be a non-empty string`);
  }
  return value.trim().toLowerCase();
}

/** `value` as a non-empty string, or undefined when absent; a TypeError for anything else. */
export function optionalString(value: unknown, name: string, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`${what}: ${name} must be a non-empty string`);
  }
  return value;
}

/** `value` as a finite number ≥ `min`, `fallback` when absent; a TypeError for anything else. */
export function numberOption(value: unknown, fallback: number, name: string, what: string, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
    throw new TypeError(`${what}: ${name} must be a finite number ≥ ${min}`);
  }
  return value;
}

/**
 * A provider's synchronous `authenticate` (same answer, thrown instead of rejected), which the auth
 * middleware uses when it is there so that a call takes no extra promise turn.
 */
export const AUTHENTICATE_NOW: unique symbol = Symbol("agentry.mcp.authenticateNow");
