/**
 * The inbox's durable side: queued messages kept in the process spool (`inbox.jsonl`) so a message
 * answered 201 survives a crash of the runtime. Questions are not kept: the caller waiting for the answer
 * loses its connection with the runtime, so a question ends with it (docs/durability.md).
 *
 * @module
 */

import { z } from "zod";
import type { ProcessSpool, SpoolLog } from "../spool.ts";
import { type InboxItem, MESSAGE_TYPES, PRIORITIES } from "./inbox_types.ts";

/** One kept message: the item as listed and its expiry in milliseconds (null: never). */
export interface StoredMessage {
  /** The message. */
  item: InboxItem;
  /** Expiry, epoch milliseconds, or null. */
  expires_ms: number | null;
}

const StoredMessageSchema = z.strictObject({
  item: z.strictObject({
    message_id: z.string().regex(/^msg_[0-9a-f]{24}$/),
    message_type: z.enum(MESSAGE_TYPES).exclude(["question"]),
    priority: z.enum(PRIORITIES),
    content: z.string(),
    sender_id: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    created_at: z.number(),
    expires_at: z.number().nullable(),
    status: z.literal("queued"),
  }),
  expires_ms: z.number().nullable(),
});

/** Opens the inbox log of a process; the stored messages come back in arrival order. */
export function openInboxLog(spool: ProcessSpool): Promise<SpoolLog<StoredMessage>> {
  return spool.open("inbox", (value) => StoredMessageSchema.parse(value) as StoredMessage);
}
