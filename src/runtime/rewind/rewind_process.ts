/**
 * Rewinding a process: preview ({@linkcode previewRewind}) and apply ({@linkcode rewindProcess}).
 *
 * Applying suspends a running or awaiting process, waits up to `waitMs` (default
 * {@linkcode REWIND_WAIT_MS}) for runs in flight, puts context and conversation back as the mode says,
 * appends a `rewind` entry `{target_entry_id, mode, actor, entries_affected, conversation_affected,
 * code_affected}` and then a `checkpoint` holding the rewound state (so a restart recovers it), and
 * resumes the process. Nothing is deleted from the journal. `cancel` changes and journals nothing.
 *
 * @module
 */

import type { JournalEntry, ProcessJournal } from "../../journal/mod.ts";
import type { ProcessState } from "../lifecycle.ts";
import { type AgentProcess, runsOf } from "../process.ts";
import { CHECKPOINT_ENTRY } from "../context/recover_context.ts";
import { RuntimeError } from "../errors.ts";
import {
  planRewind,
  REWIND_MODES,
  type RewindMode,
  type RewindPlan,
  stateBefore,
  summaryNote,
} from "./rewind_plan.ts";

/** How long a rewind waits for runs in flight before giving up with REWIND_BUSY: 10 seconds. */
export const REWIND_WAIT_MS = 10_000;

/** Entry type of an applied rewind. */
export const REWIND_ENTRY = "rewind";

/** Options for {@linkcode rewindProcess}. */
export interface RewindOptions {
  /** The mode. @default "both" */
  mode?: string;
  /** Who asked (journaled). @default "api" */
  actor?: string;
  /** Longest wait for runs in flight, in ms. @default REWIND_WAIT_MS */
  waitMs?: number;
}

/** The answer of `POST /processes/{name}/rewind`: the plan carried out. */
export interface RewindResult extends RewindPlan {
  /** False for `cancel` (nothing changed), true otherwise. */
  applied: boolean;
  /** Id of the `rewind` entry written (null for `cancel`, or when the journal write failed). */
  rewind_entry_id: string | null;
  /** Who asked. */
  actor: string;
  /** Process state after the rewind (a suspended-for-the-rewind process is running again). */
  state: ProcessState;
}

/** Transition reasons of a rewind's own suspend and resume (not counted as entries it acts on). */
const SUSPEND_REASON = "rewind";
const RESUME_REASON = "rewind done";

const queues = new WeakMap<AgentProcess, Promise<unknown>>();

/** What a rewind of `process` to just before `targetEntryId` would do; changes nothing. */
export async function previewRewind(
  process: AgentProcess,
  targetEntryId: string,
  options: { mode?: string } = {},
): Promise<RewindPlan> {
  const mode = checkMode(options.mode);
  const { entries, index } = await locate(journalOf(process), targetEntryId);
  return planRewind(entries, index, { name: process.name, mode });
}

/**
 * Rewinds `process` to just before `targetEntryId`. Rejects with a {@linkcode RuntimeError}:
 * JOURNAL_DISABLED, INVALID_MODE, ENTRY_NOT_FOUND, or REWIND_BUSY when a run is still in flight after
 * `waitMs` (the process is then resumed and nothing changed). Rewinds of one process run one at a time.
 */
export function rewindProcess(
  process: AgentProcess,
  targetEntryId: string,
  options: RewindOptions = {},
): Promise<RewindResult> {
  const previous = queues.get(process) ?? Promise.resolve();
  const next = previous.then(() => apply(process, targetEntryId, options));
  queues.set(process, next.catch(() => undefined));
  return next;
}

async function apply(
  process: AgentProcess,
  targetEntryId: string,
  options: RewindOptions,
): Promise<RewindResult> {
  const mode = checkMode(options.mode);
  const actor = options.actor ?? "api";
  const journal = journalOf(process);
  const found = await locate(journal, targetEntryId);
  if (mode === "cancel") {
    const plan = planRewind(found.entries, found.index, { name: process.name, mode });
    return { ...plan, applied: false, rewind_entry_id: null, actor, state: process.state };
  }
  const suspended = process.state === "running" || process.state === "awaiting";
  if (suspended) await process.suspend(SUSPEND_REASON);
  let result: Omit<RewindResult, "state">;
  try {
    await quiet(process, options.waitMs ?? REWIND_WAIT_MS);
    const { entries, index } = await locate(journal, targetEntryId);
    const plan = planRewind(entries, index, { name: process.name, mode });
    const config = process.config.context;
    const state = stateBefore(entries, index, {
      initial: config.initial_state,
      maxMessages: config.conversation_max_messages,
    });
    if (mode === "both" || mode === "code_only") await process.context.restore(state.context);
    if (mode === "both" || mode === "conversation_only") {
      process.conversation.restore(config.conversation_history ? state.conversation : []);
    }
    const note = mode === "summarize" ? summaryNote(entries, index) : undefined;
    if (note) {
      process.conversation.append([{ role: "user", content: note }], config.conversation_max_messages);
    }
    const written = await journal.record(REWIND_ENTRY, {
      target_entry_id: plan.target_entry_id,
      mode,
      actor,
      entries_affected: plan.entries_affected,
      conversation_affected: plan.conversation_entries_affected,
      code_affected: plan.code_entries_affected,
      ...(note ? { note } : {}),
    });
    const last = entries.findLast((entry) => entry.entry_type === CHECKPOINT_ENTRY);
    await journal.record(CHECKPOINT_ENTRY, {
      ...last?.data,
      context: process.context.snapshot(),
      conversation: process.conversation.messages(),
      rewind_entry_id: written?.entry_id ?? null,
    });
    result = { ...plan, applied: true, rewind_entry_id: written?.entry_id ?? null, actor };
  } finally {
    // Not resumed when something else (a stop, say) moved the process meanwhile.
    const now: ProcessState = process.state;
    if (suspended && now === "suspended") await process.resume(RESUME_REASON);
  }
  return { ...result, state: process.state };
}

function checkMode(mode: string | undefined): RewindMode {
  const value = mode ?? "both";
  if ((REWIND_MODES as readonly string[]).includes(value)) return value as RewindMode;
  const expected = `one of ${REWIND_MODES.join(", ")}`;
  throw new RuntimeError("INVALID_FIELD", `unknown rewind mode; ${expected}`, {
    details: { field: "mode", expected },
  });
}

function journalOf(process: AgentProcess): ProcessJournal {
  const journal = process.journal;
  if (!journal) {
    throw new RuntimeError("JOURNAL_DISABLED", `process ${process.name} keeps no journal`, {
      details: { process: process.name },
    });
  }
  return journal;
}

async function locate(
  journal: ProcessJournal,
  targetEntryId: string,
): Promise<{ entries: JournalEntry[]; index: number }> {
  const entries = (await journal.read()).filter((entry) =>
    entry.entry_id === targetEntryId || !isRewindTransition(entry)
  );
  const index = entries.findIndex((entry) => entry.entry_id === targetEntryId);
  if (index === -1) {
    throw new RuntimeError("ENTRY_NOT_FOUND", "no journal entry of this process has this id", {
      details: { process: journal.process, entryId: targetEntryId },
    });
  }
  return { entries, index };
}

/** Resolves once no run is in flight (checked again after a turn), or throws REWIND_BUSY after `waitMs`. */
async function quiet(process: AgentProcess, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  const busy = () => (runsOf(process).status().in_flight ?? 0) > 0;
  while (true) {
    if (!busy()) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (!busy()) return;
    }
    if (Date.now() >= deadline) {
      throw new RuntimeError(
        "REWIND_BUSY",
        `a run of ${process.name} is still in flight after ${waitMs} ms`,
        {
          details: { process: process.name, waitMs },
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(25, Math.max(1, deadline - Date.now()))));
  }
}

function isRewindTransition(entry: JournalEntry): boolean {
  const reason = entry.data.reason;
  return entry.entry_type === "state_transition" && (reason === SUSPEND_REASON || reason === RESUME_REASON);
}
