/**
 * HealthConfig: behavioural anomaly detection (stuck, loop, empty replies, error rate).
 *
 * @module
 */

import type { z } from "zod";
import { boolean, integer, number, oneOf, strictObject } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";
import { escalationField, requireEscalation } from "./escalation_target.ts";
import type { HealthConfig, HealthConfigInput } from "./health_config_types.ts";

export type { HealthAction, HealthConfig, HealthConfigInput } from "./health_config_types.ts";

/** Actions when an anomaly is detected. */
export const HEALTH_ACTIONS = ["log", "pause", "escalate"] as const;

/** Health monitoring settings; every field has a default. */
export const HealthConfigSchema: z.ZodType<HealthConfig, HealthConfigInput> = exactly(
  strictObject({
    enabled: boolean().default(false),
    stuck_threshold: integer({ min: 2 }).default(3),
    loop_window: integer({ min: 4 }).default(20),
    loop_min_repeats: integer({ min: 2 }).default(2),
    empty_threshold: integer({ min: 2 }).default(3),
    empty_max_chars: integer({ min: 0 }).default(10),
    error_window: integer({ min: 2 }).default(10),
    error_rate_threshold: number({ gt: 0, max: 1 }).default(0.5),
    on_anomaly: oneOf(HEALTH_ACTIONS).default("log"),
    cooldown: number({ min: 0 }).default(300),
    escalation: escalationField(),
  }).superRefine((health, ctx) => requireEscalation("on_anomaly", health, ctx)),
);
