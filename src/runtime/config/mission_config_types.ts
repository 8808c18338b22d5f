/**
 * Types of the `mission` config section: an objective that a model judges every few runs, from the
 * conversation, the context state and recent tool calls.
 *
 * @module
 */

import type { EscalationTarget } from "./escalation_target.ts";

/** What happens when the mission is achieved: stop the process, suspend it, or keep running. */
export type MissionCompleteAction = "stop" | "suspend" | "continue";

/** The `mission` section as written. Every field is optional. */
export interface MissionConfigInput {
  /**
   * Turns mission tracking on. An enabled mission needs a non-empty `objective`.
   * @default false
   */
  enabled?: boolean;
  /**
   * What the agent is meant to achieve, in plain words.
   * @default ""
   */
  objective?: string;
  /**
   * How the judge tells that the objective is achieved.
   * @default ""
   */
  success_criteria?: string;
  /**
   * Model that judges progress, as "<provider>:<model>"; null uses the process `model`.
   * @default null
   */
  eval_model?: string | null;
  /**
   * Judge progress after every this many runs. An integer >= 1.
   * @default 1
   */
  eval_every?: number;
  /**
   * Judge confidence (0 to 1) below which a not-yet-achieved mission is escalated to `escalation`.
   * A number from 0 to 1.
   * @default 0.7
   */
  confidence_threshold?: number;
  /**
   * Hours after which an unfinished mission fails. A number >= 0; 0 means no time limit.
   * @default 0
   */
  timeout_hours?: number;
  /**
   * Runs after which an unfinished mission fails. An integer >= 0; 0 means no limit.
   * @default 0
   */
  max_invocations?: number;
  /**
   * What happens when the mission is achieved.
   * @default "stop"
   */
  on_complete?: MissionCompleteAction;
  /**
   * Where low-confidence escalations go; null sends none.
   * @default null
   */
  escalation?: EscalationTarget | null;
}

/** The `mission` section with every default filled. */
export interface MissionConfig {
  /**
   * Turns mission tracking on. An enabled mission needs a non-empty `objective`.
   * @default false
   */
  enabled: boolean;
  /**
   * What the agent is meant to achieve, in plain words.
   * @default ""
   */
  objective: string;
  /**
   * How the judge tells that the objective is achieved.
   * @default ""
   */
  success_criteria: string;
  /**
   * Model that judges progress, as "<provider>:<model>"; null uses the process `model`.
   * @default null
   */
  eval_model: string | null;
  /**
   * Judge progress after every this many runs. An integer >= 1.
   * @default 1
   */
  eval_every: number;
  /**
   * Judge confidence (0 to 1) below which a not-yet-achieved mission is escalated to `escalation`.
   * A number from 0 to 1.
   * @default 0.7
   */
  confidence_threshold: number;
  /**
   * Hours after which an unfinished mission fails. A number >= 0; 0 means no time limit.
   * @default 0
   */
  timeout_hours: number;
  /**
   * Runs after which an unfinished mission fails. An integer >= 0; 0 means no limit.
   * @default 0
   */
  max_invocations: number;
  /**
   * What happens when the mission is achieved.
   * @default "stop"
   */
  on_complete: MissionCompleteAction;
  /**
   * Where low-confidence escalations go; null sends none.
   * @default null
   */
  escalation: EscalationTarget | null;
}
