/**
 * Stable ids of config triggers, and the masked view of a trigger config used in listings.
 *
 * A config trigger's id is `<type>-<digest>`, where the digest is taken over the resolved config (every
 * default filled), so it depends neither on the trigger's position nor on key order, and is the same
 * after a restart. Identical configs in one process get `-2`, `-3`, ... in order of appearance.
 *
 * @example
 * ```ts
 * import { stableTriggerIds } from "./trigger_ids.ts";
 * const cron = { type: "cron", cron_expression: "0 9 * * *", cron_timezone: null, custom_config: {} } as const;
 * const ids = stableTriggerIds([cron, cron]); // ["cron-<digest>", "cron-<digest>-2"]
 * ```
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { TriggerConfig } from "../runtime/mod.ts";

/** Hex characters in a trigger digest. */
export const TRIGGER_DIGEST_LENGTH = 10;

/** What masked values are replaced with. */
export const MASKED_VALUE = "***";

/** Key names (case-insensitive substrings) whose values are masked inside `custom_config`. */
export const CREDENTIAL_KEY_PATTERN: RegExp =
  /secret|token|password|api_key|apikey|auth|credential|signature|cookie/i;

/**
 * The text a trigger digest is taken over: `JSON.stringify` of `value` with the keys of every plain
 * object inserted in sorted order (undefined members dropped).
 *
 * This is not the audit chain's `canonicalJson` (`src/mcp/audit/canonical_json.ts`), and cannot become
 * it: trigger ids are persisted, and the two texts differ on trigger configs. Here integer-like keys
 * come first in numeric order (`{"9":…,"10":…,"":…}`, JavaScript's property order), `NaN` and
 * `Infinity` (YAML's `.nan`, `.inf`) are written `null`, and there is no depth bound; there, every key
 * is in code-unit order (`{"":…,"10":…,"9":…}`), those numbers are strings, and nesting stops at 64.
 * Not exported from any entry point.
 */
export function triggerConfigJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

/** The first 10 hex characters of SHA-256 over {@linkcode triggerConfigJson} of a resolved trigger config. */
export function triggerDigest(config: TriggerConfig): string {
  return createHash("sha256").update(triggerConfigJson(config)).digest("hex").slice(0, TRIGGER_DIGEST_LENGTH);
}

/**
 * The stable id of each resolved config, in order: `<type>-<digest>`, with `-2`, `-3`, ... appended to
 * the second, third, ... identical config.
 */
export function stableTriggerIds(configs: readonly TriggerConfig[]): string[] {
  const seen = new Map<string, number>();
  return configs.map((config) => {
    const base = `${config.type}-${triggerDigest(config)}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}-${count}`;
  });
}

/**
 * The index in a legacy id `static_<n>` (n a non-negative integer written without leading zeros), or
 * undefined for any other id.
 */
export function parseLegacyTriggerId(id: string): number | undefined {
  const match = /^static_(0|[1-9][0-9]*)$/.exec(id);
  if (!match) return undefined;
  const index = Number(match[1]);
  return Number.isSafeInteger(index) ? index : undefined;
}

/**
 * A deep copy of `config` for listings: `hmac_secret`, and every key at any depth of `custom_config` whose
 * name matches {@linkcode CREDENTIAL_KEY_PATTERN}, has its value replaced by `"***"` when present.
 */
export function maskTriggerConfig(config: TriggerConfig): Record<string, unknown> {
  const copy = copyJson(config) as Record<string, unknown>;
  if (copy.hmac_secret !== undefined) copy.hmac_secret = MASKED_VALUE;
  if (copy.custom_config !== undefined) copy.custom_config = maskCredentials(copy.custom_config);
  return copy;
}

function maskCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskCredentials);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    out[key] = member !== undefined && CREDENTIAL_KEY_PATTERN.test(key)
      ? MASKED_VALUE
      : maskCredentials(member);
  }
  return out;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
  return out;
}

function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) out[key] = copyJson(member);
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
