/**
 * The operator messages block (spec 000, "Messages and inbox" rule 9): the one system message that shows
 * the agent what is pending in its inbox.
 *
 * Layout (ours where the spec leaves it open):
 *
 * ```text
 * === OPERATOR MESSAGES ===
 *
 * [CRITICAL DIRECTIVE] (from: ops, 5 min ago, expires in 55 min)
 * Stop all refunds until further notice.
 *
 * [QUESTION] Q1 (just now, expires in 3 min)
 * How many orders are waiting?
 * Answer in your final reply with a line starting "ANSWER Q1:".
 *
 * === END OPERATOR MESSAGES ===
 * ```
 *
 * - The label is `[<PRIORITY> <TYPE>]` in capitals, the priority left out for `normal`: `[DIRECTIVE]`,
 *   `[HIGH CORRECTION]`, `[LOW CONTEXT]`, `[CRITICAL QUESTION]`.
 * - Questions are numbered `Q1`, `Q2`, ... in block order, after the label.
 * - In brackets: `from: <sender_id>` when known; the age (`just now` under a minute, `<n> min ago` under an
 *   hour, else `<n>h ago`, rounded down); the time left (`expires in <1 min`, `expires in <n> min`,
 *   `expires in <n>h`, rounded down; `no expiry` when it never expires).
 * - Then the content as sent (truncated to `max_message_length` on arrival), and for a question the line
 *   asking for `ANSWER Q<n>:`.
 * - Items are ordered by priority (critical first), then oldest first; one blank line between entries.
 *
 * @module
 */

import { type InboxItem, PRIORITIES } from "./inbox_types.ts";

/** The first line of the block. */
export const OPERATOR_BLOCK_HEADER = "=== OPERATOR MESSAGES ===";

/** The last line of the block. */
export const OPERATOR_BLOCK_FOOTER = "=== END OPERATOR MESSAGES ===";

/** Items in block order: priority (critical first), then oldest first; the input is not changed. */
export function orderItems(items: readonly InboxItem[]): InboxItem[] {
  const rank = (item: InboxItem) => PRIORITIES.indexOf(item.priority);
  return items.map((item, index) => ({ item, index }))
    .sort((a, b) => rank(b.item) - rank(a.item) || a.item.created_at - b.item.created_at || a.index - b.index)
    .map(({ item }) => item);
}

/** The label of an item: `[HIGH DIRECTIVE]`, `[QUESTION]`. */
export function itemLabel(item: InboxItem): string {
  const type = item.message_type.toUpperCase();
  return item.priority === "normal" ? `[${type}]` : `[${item.priority.toUpperCase()} ${type}]`;
}

/** `just now`, `<n> min ago` or `<n>h ago` for an age in seconds. */
export function formatAge(seconds: number): string {
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)}h ago`;
}

/** `expires in <1 min`, `expires in <n> min`, `expires in <n>h`, or `no expiry` (null). */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null) return "no expiry";
  if (seconds < 60) return "expires in <1 min";
  if (seconds < 3600) return `expires in ${Math.floor(seconds / 60)} min`;
  return `expires in ${Math.floor(seconds / 3600)}h`;
}

/**
 * The block for `items` at `now` (epoch seconds), or an empty string when there is nothing to show.
 * Answered questions are left out (they wait only for removal).
 *
 * @example
 * ```ts
 * import { operatorBlock } from "./operator_block.ts";
 * const text = operatorBlock([{
 *   message_id: "msg_000000000000000000000001", message_type: "directive", priority: "high",
 *   content: "Pause refunds.", sender_id: "ops", metadata: {}, created_at: 1000, expires_at: 4600,
 *   status: "queued",
 * }], 1300);
 * console.log(text.split("\n")[2]); // [HIGH DIRECTIVE] (from: ops, 5 min ago, expires in 55 min)
 * ```
 */
export function operatorBlock(items: readonly InboxItem[], now: number): string {
  const shown = orderItems(items.filter((item) => item.status === "queued"));
  if (shown.length === 0) return "";
  const entries: string[] = [];
  let question = 0;
  for (const item of shown) {
    const facts = [
      ...(item.sender_id === null ? [] : [`from: ${item.sender_id}`]),
      formatAge(Math.max(0, now - item.created_at)),
      formatTimeLeft(item.expires_at === null ? null : Math.max(0, item.expires_at - now)),
    ];
    const isQuestion = item.message_type === "question";
    const number = isQuestion ? ` Q${++question}` : "";
    const lines = [`${itemLabel(item)}${number} (${facts.join(", ")})`, item.content];
    if (isQuestion) lines.push(`Answer in your final reply with a line starting "ANSWER Q${question}:".`);
    entries.push(lines.join("\n"));
  }
  return [OPERATOR_BLOCK_HEADER, ...entries, OPERATOR_BLOCK_FOOTER].join("\n\n");
}
