/**
 * Schemas of the dead-letter routes. Answer schemas are proven equal to the types the code answers with.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { exactly } from "../_util/schema_proof.ts";
import type { DeadLetter, ProcessEvent } from "../runtime/mod.ts";
import type { DeadLettersAnswer, DeadLettersClearedAnswer, RedeliveredAnswer } from "./dead_letter_types.ts";

type AnswerSchema<T> = z.ZodType<T, T>;

const count = () => z.number().int();

const EventSchema: AnswerSchema<ProcessEvent> = exactly(
  z.object({
    trigger_id: z.string(),
    trigger_type: z.string(),
    event_id: z.string(),
    timestamp: z.string().openapi({ description: "ISO 8601 UTC." }),
    payload: z.unknown(),
    metadata: z.record(z.string(), z.unknown()),
  }).openapi("ProcessEvent"),
);

/** One dead letter. */
export const DeadLetterSchema: AnswerSchema<DeadLetter> = exactly(
  z.object({
    event: EventSchema,
    reason: z.string().openapi({
      description:
        "retries exhausted, process stopped, process failed, interrupted, queue full, no runner, " +
        "or a blocked run's reason",
    }),
    error: z.string().nullable().openapi({ description: "`<ErrorName>: <message>` of the last failure." }),
    attempts: count().openapi({ description: "Runs begun for the event." }),
    dead_lettered_at: z.string().openapi({ description: "ISO 8601 UTC." }),
  }).openapi("DeadLetter"),
);

/** `GET /processes/{name}/dead-letters`. */
export const DeadLettersSchema: AnswerSchema<DeadLettersAnswer> = exactly(
  z.object({
    name: z.string(),
    dead_letters: z.array(DeadLetterSchema),
    count: count(),
    total: count().openapi({
      description:
        "Letters added since the process was deployed or loaded by this runtime, dropped ones included.",
    }),
  }).openapi("DeadLetters"),
);

/** Body of `POST /processes/{name}/dead-letters/redeliver`. */
export const RedeliverBodySchema = z.object({
  event_ids: z.array(z.string()).optional().openapi({ description: "Default: every letter." }),
}).openapi("RedeliverBody");

/** `POST /processes/{name}/dead-letters/redeliver`. */
export const RedeliveredSchema: AnswerSchema<RedeliveredAnswer> = exactly(
  z.object({ name: z.string(), redelivered: count() }).openapi("Redelivered"),
);

/** `DELETE /processes/{name}/dead-letters`. */
export const DeadLettersClearedSchema: AnswerSchema<DeadLettersClearedAnswer> = exactly(
  z.object({ name: z.string(), dead_letters_cleared: count() }).openapi("DeadLettersCleared"),
);
