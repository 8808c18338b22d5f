/**
 * Mission progress survives a restart: each successful run's `checkpoint` journal entry holds it
 * (`mission`), and a deploy brings it back from the last one, then replays the `mission_state` entries
 * journaled after it (an operator's pause, resume or fail; an activation or a limit reached at run start).
 *
 * @module
 */

import type { JournalEntry } from "../../journal/mod.ts";
import { CHECKPOINT_ENTRY, sinceLastReset } from "../context/recover_context.ts";
import type { MissionTracker } from "./mission_tracker.ts";

/**
 * Restores `mission` from the last `checkpoint` holding mission progress among the process journal's
 * `entries` (oldest first) and the `mission_state` entries after it, ignoring everything up to the last
 * context reset (the process was removed and its name deployed again). True when something came back.
 */
export function recoverMission(mission: MissionTracker, entries: readonly JournalEntry[]): boolean {
  const current = sinceLastReset(entries);
  const at = current.findLastIndex((e) => e.entry_type === CHECKPOINT_ENTRY && e.data.mission != null);
  let recovered = at !== -1 && mission.restore(current[at].data.mission);
  for (const entry of current.slice(recovered ? at + 1 : 0)) {
    if (entry.entry_type !== "mission_state") continue;
    mission.replay(entry.data, Date.parse(entry.timestamp));
    recovered = true;
  }
  return recovered;
}
