/**
 * Schemas of the rewind routes (spec 000, "Journal and rewind"): the rewind body and the plan and rewind
 * answers, proven equal to the runtime's {@linkcode RewindPlan} and {@linkcode RewindResult}.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { exactly } from "../_util/schema_proof.ts";
import { REWIND_MODES, type RewindPlan, type RewindResult } from "../runtime/mod.ts";
import { StateSchema } from "./schemas.ts";

type AnswerSchema<T> = z.ZodType<T, T>;

const count = () => z.number().int().min(0);

/** Body of `POST /processes/{name}/rewind`. */
export const RewindBodySchema = z.object({
  target_entry_id: z.string().min(1).openapi({ description: "The journal entry to rewind to just before." }),
  mode: z.enum(REWIND_MODES).optional().openapi({ description: "Default both." }),
  actor: z.string().min(1).optional().openapi({ description: "Who asks (journaled); default api." }),
}).openapi("RewindRequest");

const planFields = {
  name: z.string(),
  target_entry_id: z.string(),
  mode: z.enum(REWIND_MODES),
  entries_affected: count().openapi({ description: "Entries from the target on that the mode acts on." }),
  conversation_entries_affected: count(),
  code_entries_affected: count(),
  summary: z.string(),
};

/** `GET /processes/{name}/rewind/plan`. */
export const RewindPlanSchema: AnswerSchema<RewindPlan> = exactly(
  z.object(planFields).openapi("RewindPlan"),
);

/** `POST /processes/{name}/rewind`. */
export const RewindResultSchema: AnswerSchema<RewindResult> = exactly(
  z.object({
    ...planFields,
    applied: z.boolean().openapi({ description: "False for cancel: nothing changed." }),
    rewind_entry_id: z.string().nullable().openapi({
      description: "The rewind entry written (null for cancel).",
    }),
    actor: z.string(),
    state: StateSchema,
  }).openapi("RewindResult"),
);
