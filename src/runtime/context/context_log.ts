/**
 * The context's durable side: the whole state kept as one record of the process spool (`context.jsonl`),
 * so a write answered 200 survives a crash of the runtime, with or without a journal
 * (docs/durability.md). One line holds the whole state after a write, so a write is all keys or none on
 * disk too: a line torn by a crash is skipped and the one before it holds the state before that write.
 *
 * @module
 */

import { z } from "zod";
import type { ProcessSpool, SpoolLog } from "../spool.ts";

/** The key of the one record of a context log. */
export const CONTEXT_STATE_KEY = "state";

/**
 * Lines before the log is rewritten to its last state. Each line holds a whole state (up to 256 KiB), so
 * the log is kept short.
 */
const CONTEXT_COMPACT_AFTER = 16;

/** The kept record: the state after the last change. */
export interface StoredContext {
  /** The state: a JSON object. */
  state: Record<string, unknown>;
}

const StoredContextSchema = z.strictObject({ state: z.record(z.string(), z.unknown()) });

/** Opens the context log of a process; its record, when present, is the latest state. */
export function openContextLog(spool: ProcessSpool): Promise<SpoolLog<StoredContext>> {
  return spool.open("context", (value) => StoredContextSchema.parse(value) as StoredContext, {
    compactAfter: CONTEXT_COMPACT_AFTER,
  });
}
