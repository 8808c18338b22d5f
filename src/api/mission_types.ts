/**
 * Answer and body types of the mission routes (issue 13).
 *
 * @module
 */

import type { MissionConfig, MissionConfigInput, MissionView } from "../runtime/mod.ts";
import type { SectionPatch } from "./live_patch_types.ts";

/**
 * `GET /processes/{name}/mission`, and the answer of fail, pause and resume: the process name with the
 * mission's state, objective, success criteria, invocation count, activation time, reason (why it
 * completed or failed) and evaluation history (every field).
 */
export interface MissionAnswer extends MissionView {
  /** Process name. */
  name: string;
}

/** Body of `PATCH /processes/{name}/mission`. */
export type MissionPatch = SectionPatch<MissionConfigInput>;

/** `PATCH /processes/{name}/mission`: the whole new section. */
export interface MissionPatchAnswer {
  /** Process name. */
  name: string;
  /** The mission section now in force (every field, defaults filled). */
  mission: MissionConfig;
  /** Always true. */
  live: true;
  /** Applies to the next run, evaluation and `[Mission]` block; progress is kept. */
  effective_from: "immediate";
}
