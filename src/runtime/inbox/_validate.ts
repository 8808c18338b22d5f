/**
 * Checks of a message or question as sent (spec 000 rule 2): an unknown `message_type` is INVALID_TYPE,
 * any other bad field INVALID_FIELD. Messages name the field, never its value.
 *
 * @module
 */

import { RuntimeError } from "../errors.ts";
import {
  DEFAULT_ASK_TIMEOUT,
  MAX_ASK_TIMEOUT,
  MESSAGE_TYPES,
  type MessageType,
  PRIORITIES,
  type Priority,
} from "./inbox_types.ts";

/** A message or question after the checks. */
export interface CheckedInput {
  content: string;
  messageType: MessageType;
  priority: Priority;
  senderId: string | null;
  metadata: Record<string, unknown>;
  /** Seconds asked for (0: the default); messages only. */
  ttl: number;
  /** Seconds to wait; questions only. */
  timeout: number;
}

function invalid(field: string, expected: string): RuntimeError<"INVALID_FIELD"> {
  return new RuntimeError("INVALID_FIELD", `inbox: bad ${field}`, { details: { field, expected } });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks the fields shared by messages and questions. */
function common(input: Record<string, unknown>): Omit<CheckedInput, "messageType" | "ttl" | "timeout"> {
  const { content, priority = "normal", sender_id, metadata } = input;
  if (typeof content !== "string" || content.trim() === "") throw invalid("content", "a non-empty string");
  if (!PRIORITIES.includes(priority as Priority)) {
    throw invalid("priority", `one of ${PRIORITIES.join(", ")}`);
  }
  if (sender_id !== undefined && (typeof sender_id !== "string" || sender_id === "")) {
    throw invalid("sender_id", "a non-empty string");
  }
  if (metadata !== undefined && !isRecord(metadata)) throw invalid("metadata", "an object");
  let copy: Record<string, unknown> = {};
  try {
    if (metadata !== undefined) copy = JSON.parse(JSON.stringify(metadata));
  } catch {
    throw invalid("metadata", "a JSON object");
  }
  return { content, priority: priority as Priority, senderId: sender_id ?? null, metadata: copy };
}

/** Checks a message for `send`. */
export function checkMessage(input: Record<string, unknown>): CheckedInput {
  const { message_type = "context", ttl = 0 } = input;
  if (!MESSAGE_TYPES.includes(message_type as MessageType)) {
    const expected = `one of ${MESSAGE_TYPES.join(", ")}`;
    throw new RuntimeError("INVALID_TYPE", "inbox: unknown message_type", {
      details: { field: "message_type", expected },
    });
  }
  const checked = common(input);
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl < 0) {
    throw invalid("ttl", "a number of seconds >= 0 (0: default_ttl)");
  }
  return { ...checked, messageType: message_type as MessageType, ttl, timeout: 0 };
}

/** Checks a question for `ask`. */
export function checkQuestion(input: Record<string, unknown>): CheckedInput {
  const checked = common(input);
  const { timeout = DEFAULT_ASK_TIMEOUT } = input;
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0 || timeout > MAX_ASK_TIMEOUT) {
    throw invalid("timeout", `a number of seconds > 0 and <= ${MAX_ASK_TIMEOUT}`);
  }
  return { ...checked, messageType: "question", ttl: 0, timeout };
}
