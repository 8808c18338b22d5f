/**
 * Where a deploy can stop reading the process journal: recovery (context, conversation, budget, mission)
 * needs only the entries from the last checkpoint, or the last context reset, on.
 *
 * @module
 */

import type { JournalEntry } from "../journal/mod.ts";
import { CHECKPOINT_ENTRY, CONTEXT_UPDATE_ENTRY } from "./context/recover_context.ts";
import { parseMissionSnapshot } from "./mission/mission_snapshot.ts";

/** What a deploy brings back besides context and conversation. */
export interface RecoveryNeeds {
  /** Budget counters (the process has a budget). */
  budget: boolean;
  /** Mission progress (the process has a mission). */
  mission: boolean;
}

/**
 * A `stopAt` test for a journal read going back from the newest entry (`JournalReadOptions.stopAt`):
 * it accepts the oldest entry recovery needs, so that `context.recover`, `recoverConversation`,
 * `recoverBudget` and `recoverMission` leave the same state with the entries from it on as with the
 * whole journal. That entry is the newest context reset, or else the checkpoint by which the newest
 * checkpoint, the newest one with a context object and (when needed) the newest one with budget
 * counters and with mission progress have all been seen. When the newest mission progress cannot be
 * restored, recovery replays every `mission_state` entry since the last reset, so the read goes back to
 * the reset. Keeps state: one per read.
 */
export function recoveryStopAt(needs: RecoveryNeeds): (entry: JournalEntry) => boolean {
  let checkpoint = false;
  let context = false;
  let budget = !needs.budget;
  // undefined: no mission progress seen yet; false: the newest cannot be restored (read to the reset).
  let mission: boolean | undefined = needs.mission ? undefined : true;
  return (entry) => {
    if (entry.entry_type === CONTEXT_UPDATE_ENTRY && entry.data.reset === true) return true;
    if (entry.entry_type !== CHECKPOINT_ENTRY) return false;
    const { data } = entry;
    checkpoint = true;
    context ||= typeof data.context === "object" && data.context !== null && !Array.isArray(data.context);
    budget ||= data.budget !== undefined;
    if (mission === undefined && data.mission != null) {
      mission = parseMissionSnapshot(data.mission) !== undefined;
    }
    return checkpoint && context && budget && mission === true;
  };
}
