/**
 * Schemas of the inbox routes (spec 000, "Messages and inbox"): the request bodies, the queue and ask
 * answers, and the inbox listing. Answer schemas are proven equal to the types the code answers with.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { exactly } from "../_util/schema_proof.ts";
import {
  type AskAnswer,
  type InboxItem,
  MAX_ASK_TIMEOUT,
  MESSAGE_TYPES,
  PRIORITIES,
  type QueuedMessage,
} from "../runtime/mod.ts";
import type { InboxAnswer } from "./client_types.ts";

type AnswerSchema<T> = z.ZodType<T, T>;

const priority = () => z.enum(PRIORITIES).openapi({ description: "Default normal." });

/** Body of `POST /processes/{name}/messages`. */
export const MessageBodySchema = z.object({
  content: z.string().min(1).openapi({ description: "Truncated to inbox.max_message_length." }),
  message_type: z.enum(MESSAGE_TYPES).optional().openapi({ description: "Default context." }),
  priority: priority().optional(),
  sender_id: z.string().min(1).optional().openapi({ description: "Rate limited per sender and hour." }),
  ttl: z.number().min(0).optional().openapi({
    description: "Seconds; 0 or missing uses inbox.default_ttl; inbox.max_ttl caps it.",
  }),
  metadata: z.record(z.string(), z.unknown()).optional(),
}).openapi("InboxMessage");

/** Body of `POST /processes/{name}/ask`. */
export const AskBodySchema = z.object({
  content: z.string().min(1),
  timeout: z.number().gt(0).max(MAX_ASK_TIMEOUT).optional().openapi({ description: "Seconds; default 120." }),
  priority: priority().optional(),
  sender_id: z.string().min(1).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
}).openapi("InboxQuestion");

/** `{message_id, status: queued, expires_at}`. */
export const QueuedSchema: AnswerSchema<QueuedMessage> = exactly(
  z.object({
    message_id: z.string().openapi({ example: "msg_0123456789abcdef01234567" }),
    status: z.literal("queued"),
    expires_at: z.number().nullable().openapi({ description: "Epoch seconds; null: never expires." }),
  }).openapi("MessageQueued"),
);

/** The answer of `/ask`: answered, or timeout with null fields. */
export const AskAnswerSchema: AnswerSchema<AskAnswer> = exactly(
  z.object({
    question_id: z.string(),
    status: z.enum(["answered", "timeout"]),
    response: z.string().nullable(),
    answered_at: z.number().nullable().openapi({ description: "Epoch seconds; null on timeout." }),
    invocation_id: z.string().nullable().openapi({ description: "The answering run's invocation." }),
  }).openapi("AskAnswer"),
);

/** One item of the inbox listing. */
export const InboxItemSchema: AnswerSchema<InboxItem> = exactly(
  z.object({
    message_id: z.string(),
    message_type: z.enum(MESSAGE_TYPES),
    priority: z.enum(PRIORITIES),
    content: z.string(),
    sender_id: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    created_at: z.number(),
    expires_at: z.number().nullable(),
    status: z.enum(["queued", "answered"]),
  }).openapi("InboxItem"),
);

/** `GET /processes/{name}/inbox`. */
export const InboxAnswerSchema: AnswerSchema<InboxAnswer> = exactly(
  z.object({
    name: z.string(),
    enabled: z.boolean(),
    count: z.number().int(),
    pending_messages: z.number().int(),
    pending_questions: z.number().int(),
    messages: z.array(InboxItemSchema),
  }).openapi("Inbox"),
);
