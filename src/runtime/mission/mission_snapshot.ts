/**
 * The mission counters a checkpoint keeps (`checkpoint.data.mission`), and their strict reading.
 *
 * @module
 */

import { z } from "zod";
import type { MissionEvaluation, MissionState } from "./mission_tracker.ts";

/** What a checkpoint keeps of a mission. */
export interface MissionSnapshot {
  /** State. */
  state: MissionState;
  /** Successful runs counted. */
  invocations: number;
  /** Activation time in ms, or null. */
  activated_at: number | null;
  /** Why it completed or failed. */
  reason: string | null;
  /** Evaluations made (the history may hold fewer). */
  evaluation_count: number;
  /** Evaluations kept. */
  evaluations: MissionEvaluation[];
}

const EvaluationSchema = z.strictObject({
  evaluation: z.number().int().min(1),
  invocation: z.number().int().min(0),
  achieved: z.boolean(),
  confidence: z.number().min(0).max(1),
  reasoning: z.string(),
  progress_summary: z.string(),
  model: z.string(),
  timestamp: z.string(),
});

const SnapshotSchema = z.strictObject({
  state: z.enum(["pending", "active", "paused", "completed", "failed"]),
  invocations: z.number().int().min(0),
  activated_at: z.number().nullable(),
  reason: z.string().nullable(),
  evaluation_count: z.number().int().min(0),
  evaluations: z.array(EvaluationSchema),
});

/** A snapshot read back, or undefined when `value` has another shape. */
export function parseMissionSnapshot(value: unknown): MissionSnapshot | undefined {
  const parsed = SnapshotSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
