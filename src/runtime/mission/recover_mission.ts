/**
 * Mission progress survives a restart: each successful run's `checkpoint` journal entry holds it
 * (`mission`), and a deploy brings it back from the last one.
 *
 * @module
 */

import type { ProcessJournal } from "../../journal/mod.ts";
import type { MissionTracker } from "./mission_tracker.ts";

/**
 * Restores `mission` from the journal's last `checkpoint` entry holding mission progress, unless the
 * context was reset after it (the process was removed and its name deployed again). True when it came back.
 */
export async function recoverMission(mission: MissionTracker, journal: ProcessJournal): Promise<boolean> {
  const checkpoints = (await journal.read({ type: "checkpoint" })).filter((e) => e.data.mission != null);
  const checkpoint = checkpoints.at(-1);
  if (!checkpoint) return false;
  const resets = (await journal.read({ type: "context_update" })).filter((e) => e.data.reset === true);
  const lastReset = resets.at(-1);
  if (lastReset && lastReset.timestamp >= checkpoint.timestamp) return false;
  return mission.restore(checkpoint.data.mission);
}
