/**
 * MissionConfig: the `mission` config section, an objective that a model judges every few runs, from the
 * conversation, the context state and recent tool calls.
 *
 * @module
 */

import type { z } from "zod";
import {
  boolean,
  integer,
  modelString,
  number,
  oneOf,
  OR_NULL,
  type Resolved,
  strictObject,
  string,
} from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";
import { escalationField, type EscalationTarget } from "./escalation_target.ts";

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
export type MissionConfig = Resolved<MissionConfigInput>;

/** What happens when the mission is achieved. */
export const MISSION_COMPLETE_ACTIONS = ["stop", "suspend", "continue"] as const;

/** Mission settings; an enabled mission needs a non-empty objective. */
export const MissionConfigSchema: z.ZodType<MissionConfig, MissionConfigInput> = exactly(
  strictObject({
    enabled: boolean().default(false),
    objective: string().default(""),
    success_criteria: string().default(""),
    eval_model: modelString(OR_NULL).nullable().default(null),
    eval_every: integer({ min: 1 }).default(1),
    confidence_threshold: number({ min: 0, max: 1 }).default(0.7),
    timeout_hours: number({ min: 0 }).default(0),
    max_invocations: integer({ min: 0 }).default(0),
    on_complete: oneOf(MISSION_COMPLETE_ACTIONS).default("stop"),
    escalation: escalationField(),
  }).superRefine((mission, ctx) => {
    if (mission.enabled && mission.objective.trim() === "") {
      ctx.addIssue({
        code: "custom",
        path: ["objective"],
        message: "a non-empty objective (required when enabled is true)",
      });
    }
  }),
);
