/**
 * Recovering context state from a process journal after a runtime restart.
 *
 * @module
 */

import type { JournalEntry } from "../../journal/mod.ts";

/** Entry type of a context write: `{values: {key: value | null}, source, reset?}`. */
export const CONTEXT_UPDATE_ENTRY = "context_update";

/** Entry type of a checkpoint; its `data.context` holds the state after a run. */
export const CHECKPOINT_ENTRY = "checkpoint";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The state that `entries` (oldest first) leave: starting from the last `checkpoint` entry whose
 * `data.context` is an object (else from `initial`), each later `context_update` entry is applied in
 * order (a `reset` one first puts the state back to `initial`; a `null` value deletes its key).
 * Undefined when the entries hold neither. `initial` is copied, never changed.
 */
export function replayContext(
  entries: readonly JournalEntry[],
  initial: Record<string, unknown>,
): Record<string, unknown> | undefined {
  let start = 0;
  let state: Record<string, unknown> | undefined;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry.entry_type === CHECKPOINT_ENTRY && isObject(entry.data.context)) {
      state = structuredClone(entry.data.context);
      start = index + 1;
      break;
    }
  }
  for (const entry of entries.slice(start)) {
    if (entry.entry_type !== CONTEXT_UPDATE_ENTRY) continue;
    const { values, reset } = entry.data;
    if (reset === true || state === undefined) state = structuredClone(initial);
    if (!isObject(values)) continue;
    for (const [key, value] of Object.entries(values)) {
      if (value === null) delete state[key];
      else state[key] = structuredClone(value);
    }
  }
  return state;
}

/**
 * The entries after the last context reset (the process was removed and its name deployed again), oldest
 * first; all of them when there was none. What a deploy recovers comes from these.
 */
export function sinceLastReset(entries: readonly JournalEntry[]): readonly JournalEntry[] {
  const reset = entries.findLastIndex((e) => e.entry_type === CONTEXT_UPDATE_ENTRY && e.data.reset === true);
  return reset === -1 ? entries : entries.slice(reset + 1);
}
