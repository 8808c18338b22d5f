/**
 * Rewind planning: which journal entries a rewind to just before a target entry acts on, and the state
 * (context and conversation) the process had at that point. Pure functions over journal entries.
 *
 * @module
 */

import type { JournalEntry } from "../../journal/mod.ts";
import { CHECKPOINT_ENTRY, replayContext } from "../context/recover_context.ts";
import type { ConversationMessage } from "../conversation.ts";

/** Rewind modes. */
export const REWIND_MODES: readonly ["both", "conversation_only", "code_only", "summarize", "cancel"] = [
  "both",
  "conversation_only",
  "code_only",
  "summarize",
  "cancel",
];

/**
 * A rewind mode: `both` (conversation and context back), `conversation_only` (conversation back, context
 * kept), `code_only` (context back, conversation kept), `summarize` (nothing back; a note about the skipped
 * interval joins the conversation), `cancel` (a dry run: nothing changes and nothing is journaled).
 */
export type RewindMode = typeof REWIND_MODES[number];

/** Entry types that make up the conversation. */
export const CONVERSATION_ENTRY_TYPES: ReadonlySet<string> = new Set([
  "user_prompt",
  "assistant_message",
  "conversation_turn",
]);

/** Entry types that change state or act on the world (tool calls, context writes, transitions). */
export const CODE_ENTRY_TYPES: ReadonlySet<string> = new Set([
  "tool_call",
  "tool_result",
  "context_update",
  "state_transition",
  "file_write",
  "file_change",
  "code_execution",
]);

/** The answer of `GET /processes/{name}/rewind/plan` (and the plan part of a rewind's answer). */
export interface RewindPlan {
  /** Process name. */
  name: string;
  /** The entry the rewind goes back to just before. */
  target_entry_id: string;
  /** The mode. */
  mode: RewindMode;
  /**
   * Entries from the target to the newest that the mode acts on: all of them for `both`, `summarize`
   * (summarised, not undone) and `cancel` (what `both` would undo); the conversation entries for
   * `conversation_only`; the code entries for `code_only`.
   */
  entries_affected: number;
  /** Conversation entries (`user_prompt`, `assistant_message`) among them. */
  conversation_entries_affected: number;
  /** Code and state entries (`tool_call`, `tool_result`, `context_update`, `state_transition`) among them. */
  code_entries_affected: number;
  /** One sentence saying what the rewind does. */
  summary: string;
}

/** The context and conversation a process had just before an entry. */
export interface RewoundState {
  /** Context state. */
  context: Record<string, unknown>;
  /** Kept conversation, oldest first. */
  conversation: ConversationMessage[];
}

/** Counts and the one-line summary for a rewind of `entries` from index `target` on. */
export function planRewind(
  entries: readonly JournalEntry[],
  target: number,
  options: { name: string; mode: RewindMode },
): RewindPlan {
  const { name, mode } = options;
  const interval = entries.slice(target);
  const conversation = interval.filter((e) => CONVERSATION_ENTRY_TYPES.has(e.entry_type)).length;
  const code = interval.filter((e) => CODE_ENTRY_TYPES.has(e.entry_type)).length;
  const counts = {
    both: [interval.length, conversation, code],
    conversation_only: [conversation, conversation, 0],
    code_only: [code, 0, code],
    summarize: [interval.length, conversation, code],
    cancel: [interval.length, conversation, code],
  }[mode];
  const span = `${interval.length} entr${interval.length === 1 ? "y" : "ies"} from the target on`;
  const summary = {
    both: `Rolls back conversation and context state to just before the target (${span}).`,
    conversation_only:
      `Rolls back the conversation to just before the target (${conversation} conversation entries); context state is kept.`,
    code_only:
      `Rolls back context state to just before the target (${code} code entries); the conversation is kept.`,
    summarize: `Rolls nothing back; adds a note summarising the ${span} to the conversation.`,
    cancel: `Dry run: nothing changes; a both rewind would act on the ${span}.`,
  }[mode];
  return {
    name,
    target_entry_id: entries[target].entry_id,
    mode,
    entries_affected: counts[0],
    conversation_entries_affected: counts[1],
    code_entries_affected: counts[2],
    summary,
  };
}

/**
 * The state just before `entries[target]`: from the last `checkpoint` before it (its context and
 * conversation), then the `context_update` entries and the completed `user_prompt` / `assistant_message`
 * pairs (same `run_id`) after that checkpoint and before the target. The conversation keeps the newest
 * `maxMessages` (0: all).
 */
export function stateBefore(
  entries: readonly JournalEntry[],
  target: number,
  options: { initial: Record<string, unknown>; maxMessages: number },
): RewoundState {
  const before = entries.slice(0, target);
  const context = replayContext(before, options.initial) ?? structuredClone(options.initial);
  let start = 0;
  let conversation: ConversationMessage[] = [];
  for (let index = before.length - 1; index >= 0; index--) {
    if (before[index].entry_type !== CHECKPOINT_ENTRY) continue;
    conversation = messagesOf(before[index].data.conversation);
    start = index + 1;
    break;
  }
  const prompts = new Map<unknown, string>();
  for (const entry of before.slice(start)) {
    const { run_id: runId, content } = entry.data;
    if (typeof content !== "string") continue;
    if (entry.entry_type === "user_prompt") prompts.set(runId, content);
    if (entry.entry_type === "assistant_message" && prompts.has(runId)) {
      conversation.push({ role: "user", content: prompts.get(runId)! }, { role: "assistant", content });
      prompts.delete(runId);
    }
  }
  const max = options.maxMessages;
  if (max > 0 && conversation.length > max) conversation = conversation.slice(-max);
  return { context, conversation };
}

/**
 * The note a `summarize` rewind adds to the conversation (as a user message the next prompt shows): how
 * many entries of which types the interval from the target on holds, the replies given, the tools called
 * (at journal level `full`) and the context keys written in it.
 */
export function summaryNote(entries: readonly JournalEntry[], target: number): string {
  const interval = entries.slice(target);
  const counts = new Map<string, number>();
  for (const entry of interval) counts.set(entry.entry_type, (counts.get(entry.entry_type) ?? 0) + 1);
  const kinds = [...counts].map(([type, count]) => `${count} ${type}`).join(", ");
  const named = (type: string, pick: (data: Record<string, unknown>) => unknown[]) => [
    ...new Set(interval.filter((e) => e.entry_type === type).flatMap((e) => pick(e.data)).map(String)),
  ];
  const tools = named("tool_call", (data) => typeof data.tool === "string" ? [data.tool] : []);
  const keys = named("context_update", (data) => isObject(data.values) ? Object.keys(data.values) : []);
  const replies = counts.get("assistant_message") ?? 0;
  const parts = [
    `[Runtime note] An operator rewound past ${interval.length} journal entries (${kinds})`,
    `since ${entries[target].timestamp}, keeping their effects.`,
    `That interval holds ${replies} repl${replies === 1 ? "y" : "ies"} of yours.`,
  ];
  if (tools.length > 0) parts.push(`Tools called in it: ${tools.join(", ")}.`);
  if (keys.length > 0) parts.push(`Context keys written in it: ${keys.join(", ")}.`);
  parts.push("Take this into account before repeating what was tried.");
  return parts.join(" ");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function messagesOf(value: unknown): ConversationMessage[] {
  if (!Array.isArray(value)) return [];
  return value.filter((m): m is ConversationMessage =>
    typeof m === "object" && m !== null && (m.role === "user" || m.role === "assistant") &&
    typeof m.content === "string"
  ).map((m) => ({ role: m.role, content: m.content }));
}
