/**
 * Options of the typed client's inbox methods (moved out of `client.ts` to keep it under 500 lines).
 *
 * @module
 */

import type { MessageType, Priority } from "../runtime/mod.ts";

/** Options of `RuntimeClient.sendMessage`. */
export interface SendMessageOptions {
  /** Kind of message: directive, context, question or correction. @default "context" */
  messageType?: MessageType;
  /** low, normal, high or critical. @default "normal" */
  priority?: Priority;
  /** The sender (rate limited per sender and hour). */
  senderId?: string;
  /** Seconds the message lives; 0 or missing: the inbox's default_ttl. */
  ttl?: number;
  /** Stored with the message. */
  metadata?: Record<string, unknown>;
}

/** Options of `RuntimeClient.ask`. */
export interface AskOptions {
  /** Seconds to wait, at most 3600. @default 120 */
  timeout?: number;
  /** low, normal, high or critical. @default "normal" */
  priority?: Priority;
  /** Who asks. */
  senderId?: string;
  /** Stored with the question. */
  metadata?: Record<string, unknown>;
}
