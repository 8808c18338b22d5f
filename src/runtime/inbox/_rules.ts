/**
 * The inbox's pure rules: lifetimes (spec 000 InboxConfig and the ask limits), the eviction choice (rule 5)
 * and truncation.
 *
 * @module
 */

import type { InboxConfig } from "../config/mod.ts";
import { PRIORITIES, type Priority, QUESTION_GRACE } from "./inbox_types.ts";

const rank = (priority: Priority) => PRIORITIES.indexOf(priority);

/** Seconds a message lives (null: forever) for the ttl asked for (0: `default_ttl`), capped by `max_ttl`. */
export function lifetime(ttl: number, settings: Pick<InboxConfig, "default_ttl" | "max_ttl">): number | null {
  const { default_ttl, max_ttl } = settings;
  const asked = ttl > 0 ? ttl : default_ttl;
  if (asked === 0) return max_ttl > 0 ? max_ttl : null;
  return max_ttl > 0 ? Math.min(asked, max_ttl) : asked;
}

/** Seconds a question waited on for `timeout` seconds lives: timeout + 60, capped by `max_ttl`. */
export function questionLifetime(timeout: number, settings: Pick<InboxConfig, "max_ttl">): number {
  const life = timeout + QUESTION_GRACE;
  return settings.max_ttl > 0 ? Math.min(life, settings.max_ttl) : life;
}

/**
 * The oldest of the lowest priority among `held` (oldest first), when a message of `priority` may evict it:
 * never a critical one, never one of a higher priority than the new message.
 */
export function lowestOldest<T>(
  held: readonly T[],
  priorityOf: (item: T) => Priority,
  priority: Priority,
): T | undefined {
  if (held.length === 0) return undefined;
  const lowest = Math.min(...held.map((h) => rank(priorityOf(h))));
  if (lowest === rank("critical") || lowest > rank(priority)) return undefined;
  return held.find((h) => rank(priorityOf(h)) === lowest);
}

/** `text` cut to `max` UTF-16 units, without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
