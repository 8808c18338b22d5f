/**
 * The conversation a process keeps across runs: each run adds its trigger message and final reply (tool
 * messages are never kept), the oldest messages dropping out past `context.conversation_max_messages`.
 *
 * @module
 */

import type { JournalEntry } from "../journal/mod.ts";
import { CHECKPOINT_ENTRY, sinceLastReset } from "./context/recover_context.ts";

/** One kept message. */
export interface ConversationMessage {
  /** `user` (a trigger message) or `assistant` (a final reply). */
  role: "user" | "assistant";
  /** The text. */
  content: string;
}

/** A bounded conversation buffer. */
export class Conversation {
  #messages: ConversationMessage[] = [];

  /** The kept messages, oldest first (a copy). */
  messages(): ConversationMessage[] {
    return this.#messages.map((m) => ({ ...m }));
  }

  /** Number of kept messages. */
  get size(): number {
    return this.#messages.length;
  }

  /** Adds one run's exchange and drops the oldest messages past `max` (0 keeps every message). */
  append(exchange: readonly ConversationMessage[], max: number): void {
    this.#messages.push(...exchange.map((m) => ({ role: m.role, content: m.content })));
    if (max > 0 && this.#messages.length > max) this.#messages.splice(0, this.#messages.length - max);
  }

  /** Replaces the messages (recovery from a checkpoint); entries of another shape are skipped. */
  restore(messages: unknown): void {
    this.#messages = Array.isArray(messages)
      ? messages.filter(isMessage).map((m) => ({ role: m.role, content: m.content }))
      : [];
  }

  /** Forgets every message. */
  clear(): void {
    this.#messages = [];
  }
}

function isMessage(value: unknown): value is ConversationMessage {
  if (typeof value !== "object" || value === null) return false;
  const { role, content } = value as Record<string, unknown>;
  return (role === "user" || role === "assistant") && typeof content === "string";
}

/**
 * Restores `conversation` from the last `checkpoint` among the process journal's `entries` (oldest first),
 * unless the context was reset after it (the process was removed and its name deployed again).
 */
export function recoverConversation(conversation: Conversation, entries: readonly JournalEntry[]): void {
  const checkpoint = sinceLastReset(entries).findLast((e) => e.entry_type === CHECKPOINT_ENTRY);
  if (checkpoint) conversation.restore(checkpoint.data.conversation);
}
