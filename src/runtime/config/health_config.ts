/**
 * HealthConfig: the `health` config section, detectors of stuck agents, tool-call loops, empty replies and
 * failing runs. Detection is local (no model calls).
 *
 * @module
 */

import type { z } from "zod";
import { boolean, integer, number, oneOf, type Resolved, strictObject } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";
import { escalationField, type EscalationTarget, requireEscalation } from "./escalation_target.ts";

/** What happens when an anomaly is detected: log it, suspend the process, or escalate and suspend. */
export type HealthAction = "log" | "pause" | "escalate";

/** The `health` section as written. Every field is optional. */
export interface HealthConfigInput {
  /**
   * Turns anomaly detection on.
   * @default false
   */
  enabled?: boolean;
  /**
   * Identical tool calls (same tool, same arguments) in a row within one run that count as stuck.
   * An integer >= 2.
   * @default 3
   */
  stuck_threshold?: number;
  /**
   * Number of recent tool calls searched for a repeating pattern. An integer >= 4.
   * @default 20
   */
  loop_window?: number;
  /**
   * Times a pattern of tool calls must repeat back to back to count as a loop. An integer >= 2.
   * @default 2
   */
  loop_min_repeats?: number;
  /**
   * Empty final replies in a row that count as an anomaly. An integer >= 2.
   * @default 3
   */
  empty_threshold?: number;
  /**
   * Longest reply (in characters, after trimming) that still counts as empty. An integer >= 0.
   * @default 10
   */
  empty_max_chars?: number;
  /**
   * Number of recent runs the error rate is computed over. An integer >= 2.
   * @default 10
   */
  error_window?: number;
  /**
   * Share of failed runs in the window that counts as an anomaly. A number > 0 and <= 1.
   * @default 0.5
   */
  error_rate_threshold?: number;
  /**
   * What happens when an anomaly is detected: "log" only records it, "pause" suspends the process,
   * "escalate" notifies `escalation` and suspends.
   * @default "log"
   */
  on_anomaly?: HealthAction;
  /**
   * Seconds before an anomaly of the same type is reported again. A number >= 0.
   * @default 300
   */
  cooldown?: number;
  /**
   * Where escalations go. Required when `on_anomaly` is "escalate".
   * @default null
   */
  escalation?: EscalationTarget | null;
}

/** The `health` section with every default filled. */
export type HealthConfig = Resolved<HealthConfigInput>;

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
