/**
 * Missions of processes (issue 13): an objective a model judges every few runs
 * ({@linkcode MissionTracker}, one per process through `AgentProcess.mission`), the judge's prompt and
 * strict answer ({@linkcode judgePrompt}, {@linkcode parseJudgeAnswer}), and recovery from checkpoints.
 *
 * @example
 * ```ts
 * import { MissionTracker } from "./mod.ts";
 * import { MissionConfigSchema } from "../config/mission_config.ts";
 * import { Logger } from "../../log.ts";
 * const host = {
 *   name: "writer",
 *   processId: "p1",
 *   config: { mission: MissionConfigSchema.parse({ enabled: true, objective: "Ship the report" }) },
 *   suspend: () => Promise.resolve(),
 *   stop: () => Promise.resolve(),
 *   resolveReferences: <T>(value: T) => value,
 * };
 * const mission = new MissionTracker(host, { logger: new Logger("example") });
 * mission.begin(); // pending -> active
 * const judge = () =>
 *   Promise.resolve('{"achieved": true, "confidence": 0.9, "reasoning": "sent", "progress_summary": "done"}');
 * await mission.afterRun({ reply: "Report sent.", conversation: [], state: {} }, { judge });
 * console.log(mission.state); // "completed"
 * ```
 *
 * @module
 */

export {
  JUDGE_SYSTEM_MARKER,
  JudgeAnswerError,
  type JudgeEvidence,
  judgePrompt,
  type JudgeRequest,
  type JudgeVerdict,
  type MissionJudge,
  parseJudgeAnswer,
} from "./mission_judge.ts";
export {
  EVALUATION_HISTORY_LIMIT,
  type MissionEvaluation,
  type MissionHost,
  type MissionOperation,
  type MissionState,
  MissionTracker,
  type MissionView,
} from "./mission_tracker.ts";
export { type MissionSnapshot, parseMissionSnapshot } from "./mission_snapshot.ts";
export { type MissionStatus, ProcessMission, requireMission } from "./process_mission.ts";
export { recoverMission } from "./recover_mission.ts";
