/**
 * Option checks and key helpers shared by the built-in middleware.
 *
 * @module
 */

import type { OptionKeysWording } from "../../_util/option_keys.ts";

/**
 * How the built-in middleware word option refusals (for `checkOptionKeys`): `options` must be a
 * plain object, and an unknown key is named with the allowed ones.
 */
export const MIDDLEWARE_WORDING: OptionKeysWording = { unknown: "listed", notObject: true };

/** A numeric option to check with {@linkcode checkNumber}. */
export interface NumberRule {
  /** Option name, for the message. */
  name: string;
  /** The value given. */
  value: unknown;
  /** Require an integer. @default false */
  integer?: boolean;
  /** Smallest allowed value (inclusive); without it the value must be above zero. */
  min?: number;
}

/** Throws a `RangeError` unless the rule's value is a finite number within the rule. */
export function checkNumber(owner: string, rule: NumberRule): void {
  const { name, value, integer = false, min } = rule;
  const ok = typeof value === "number" && Number.isFinite(value) &&
    (min === undefined ? value > 0 : value >= min) && (!integer || Number.isSafeInteger(value));
  if (ok) return;
  const kind = integer ? "an integer" : "a number";
  const bound = min === undefined ? "above 0" : `of at least ${min}`;
  throw new RangeError(`${owner}: ${name} must be ${kind} ${bound}, got ${String(value)}`);
}

/** Joins key parts injectively: each part written `<length>:<part>`, the parts joined with `|`. */
export function composeKey(parts: readonly string[]): string {
  return parts.map((part) => `${part.length}:${part}`).join("|");
}

/** The per-caller part of a limiter key: `tenant=<t>` when the caller has a tenant, then the client id or `global`. */
export function callerParts(tenantId: string | undefined, clientId: string | undefined): string[] {
  const parts = tenantId ? [`tenant=${tenantId}`] : [];
  parts.push(clientId ?? "global");
  return parts;
}

/** `composeKey(callerParts(tenantId, clientId))`, built without the lists. */
export function callerKey(tenantId: string | undefined, clientId: string | undefined): string {
  const client = clientId ?? "global";
  const last = `${client.length}:${client}`;
  if (!tenantId) return last;
  return `${tenantId.length + 7}:tenant=${tenantId}|${last}`;
}
