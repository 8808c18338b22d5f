/**
 * The deploy-time warning for governance state that would not survive a restart: budget counters and
 * mission progress (and the conversation with them) are brought back only from a durable journal (`file`
 * or `sqlite`). Context state, queued events and inbox messages do not need one (they are in the spool).
 *
 * @module
 */

import type { Logger } from "../log.ts";
import type { ProcessConfig } from "./config/mod.ts";

/** The fix the warning names. */
const FIX = 'add `journal: {level: "checkpoint"}` (backend file or sqlite) to the process config';

/**
 * What of `config` restarts from zero when the runtime restarts or crashes, because the process keeps no
 * durable journal (none, level `none`, or backend `memory`): `budget counters` (budget on), `mission
 * progress` (mission on), and then also `conversation` (when `context.conversation_history` is on). Empty
 * when the journal is durable or neither budget nor mission is on (a conversation alone is not named:
 * it is on by default and a process without a journal keeps none across restarts, as documented).
 */
export function undurableState(config: ProcessConfig): string[] {
  const journal = config.journal;
  if (journal && journal.level !== "none" && journal.backend !== "memory") return [];
  const lost: string[] = [];
  if (config.budget.enabled) lost.push("budget counters");
  if (config.mission.enabled) lost.push("mission progress");
  if (lost.length > 0 && config.context.conversation_history) lost.push("conversation");
  return lost;
}

/** Logs one warning naming the process, what restarts from zero and the fix; nothing when all is kept. */
export function warnUndurableState(process: { name: string; config: ProcessConfig }, logger: Logger): void {
  const lost = undurableState(process.config);
  if (lost.length === 0) return;
  logger.warning(
    `process ${process.name} keeps no durable journal: its ${lost.join(", ")} restart from zero when the ` +
      `runtime restarts or crashes; ${FIX}`,
    { process: process.name, restarts_from_zero: lost, fix: FIX },
  );
}
