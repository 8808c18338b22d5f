/**
 * MissionConfig: an objective judged by a model every few runs.
 *
 * @module
 */

import type { z } from "zod";
import { boolean, integer, modelString, number, oneOf, OR_NULL, strictObject, string } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";
import { escalationField } from "./escalation_target.ts";
import type { MissionConfig, MissionConfigInput } from "./mission_config_types.ts";

export type { MissionCompleteAction, MissionConfig, MissionConfigInput } from "./mission_config_types.ts";

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
