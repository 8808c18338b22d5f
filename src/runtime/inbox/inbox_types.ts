/**
 * The records of the inbox (spec 000, "Inbox message" and "Messages and inbox"): what an operator sends,
 * what the inbox holds and lists, and the answers of `send` and `ask`.
 *
 * @module
 */

/** Kinds of message, as the spec names them. */
export const MESSAGE_TYPES = ["directive", "context", "question", "correction"] as const;

/** A kind of message. */
export type MessageType = typeof MESSAGE_TYPES[number];

/** Priorities, lowest first. */
export const PRIORITIES = ["low", "normal", "high", "critical"] as const;

/** A message priority. */
export type Priority = typeof PRIORITIES[number];

/** Seconds an `/ask` waits when it gives no timeout. */
export const DEFAULT_ASK_TIMEOUT = 120;

/** Longest `/ask` wait in seconds. */
export const MAX_ASK_TIMEOUT = 3600;

/** Seconds a question outlives its caller's wait (then capped by `max_ttl`). */
export const QUESTION_GRACE = 60;

/** A message as sent (the body of `POST /processes/{name}/messages`). Fields are checked at run time. */
export interface MessageInput {
  /** The text; a non-empty string, truncated to `max_message_length`. */
  content: string;
  /** Kind of message. @default "context" */
  message_type?: MessageType;
  /** Priority. @default "normal" */
  priority?: Priority;
  /** Who sent it; messages with a sender are rate limited per sender. */
  sender_id?: string;
  /** Seconds it lives; 0 or missing uses `default_ttl`, and `max_ttl` caps it. */
  ttl?: number;
  /** Stored with the message and listed with it. */
  metadata?: Record<string, unknown>;
}

/** A question as asked (the body of `POST /processes/{name}/ask`). */
export interface QuestionInput {
  /** The question; a non-empty string. */
  content: string;
  /** Seconds to wait for the answer, above 0 and at most 3600. @default 120 */
  timeout?: number;
  /** Priority. @default "normal" */
  priority?: Priority;
  /** Who asks (rate limited like messages). */
  sender_id?: string;
  /** Stored with the question. */
  metadata?: Record<string, unknown>;
}

/** One message or question held by the inbox. */
export interface InboxItem {
  /** `msg_` and 24 hex characters (a question's id is its `question_id`). */
  message_id: string;
  /** Kind. */
  message_type: MessageType;
  /** Priority. */
  priority: Priority;
  /** The text (already truncated). */
  content: string;
  /** The sender, or null. */
  sender_id: string | null;
  /** Stored metadata (`{}` when none was given). */
  metadata: Record<string, unknown>;
  /** Arrival, epoch seconds. */
  created_at: number;
  /** Expiry, epoch seconds; null when it never expires (`default_ttl` and `max_ttl` both 0). */
  expires_at: number | null;
  /** `answered` for a question answered but not yet removed; `queued` otherwise. */
  status: "queued" | "answered";
}

/** The answer of `send`: `{message_id, status: queued, expires_at}`. */
export interface QueuedMessage {
  /** Id of the new message. */
  message_id: string;
  /** Always `queued`. */
  status: "queued";
  /** Expiry, epoch seconds; null when the message never expires. */
  expires_at: number | null;
}

/** The answer of `ask`. On `timeout`, `response`, `answered_at` and `invocation_id` are null. */
export interface AskAnswer {
  /** Id of the question (a message id). */
  question_id: string;
  /** `answered`, or `timeout` when no answer arrived in time. */
  status: "answered" | "timeout";
  /** The answer text (secret values replaced by `[REDACTED]`), or null. */
  response: string | null;
  /** When it was answered, epoch seconds, or null. */
  answered_at: number | null;
  /** The invocation (run ordinal) that answered, as a string, or null. */
  invocation_id: string | null;
}

/** Counts for the process status body. */
export interface InboxStatus {
  /** Whether the process has an inbox. */
  enabled: boolean;
  /** Messages and questions held (expired ones purged). */
  pending: number;
  /** Unanswered questions among them. */
  questions: number;
}
