/**
 * Mission progress survives a restart: each successful run's `checkpoint` journal entry holds it
 * (`mission`), and a deploy brings it back from the last one, then replays the `mission_state` entries
 * journaled after it (an operator's pause, resume or fail; an activation or a limit reached at run start).
 *
 * @module
 */

import type { ProcessJournal } from "../../journal/mod.ts";
import type { MissionTracker } from "./mission_tracker.ts";

/**
 * Restores `mission` from the journal's last `checkpoint` entry holding mission progress and the
 * `mission_state` entries after it, ignoring everything up to the last context reset (the process was
 * removed and its name deployed again). True when something came back.
 */
export async function recoverMission(mission: MissionTracker, journal: ProcessJournal): Promise<boolean> {
  const resets = (await journal.read({ type: "context_update" })).filter((e) => e.data.reset === true);
  const since = resets.at(-1)?.timestamp ?? "";
  const checkpoint = (await journal.read({ type: "checkpoint" }))
    .filter((e) => e.data.mission != null && e.timestamp > since).at(-1);
  let recovered = checkpoint ? mission.restore(checkpoint.data.mission) : false;
  const after = checkpoint && recovered ? checkpoint.timestamp : since;
  const states = (await journal.read({ type: "mission_state" })).filter((e) => e.timestamp > after);
  for (const entry of states) {
    mission.replay(entry.data, Date.parse(entry.timestamp));
    recovered = true;
  }
  return recovered;
}
