/**
 * Reading answers out of an agent's final reply (spec 000, "Messages and inbox" rule 10): every part of the
 * form `ANSWER Q<n>: <text>`, the text running to the next marker or the end.
 *
 * Our reading: the marker is matched in any case (`Answer q2:` counts) anywhere in the reply, not only at
 * the start of a line; spaces between the parts of the marker are allowed (`ANSWER  Q1 :`). The text is
 * trimmed; an empty text answers nothing. When a number appears twice, the first answer counts. Numbers
 * that match no question are ignored by the inbox.
 *
 * @module
 */

const MARKER = /\bANSWER[ \t]+Q(\d{1,4})[ \t]*:/gi;

/**
 * The answers in `reply`, by question number (1-based).
 *
 * @example
 * ```ts
 * import { parseAnswers } from "./answers.ts";
 * const answers = parseAnswers("Done.\nANSWER Q1: 42 orders.\nANSWER Q2: yes");
 * console.log(answers.get(1), answers.get(2)); // 42 orders. yes
 * ```
 */
export function parseAnswers(reply: string): Map<number, string> {
  const marks = [...reply.matchAll(MARKER)];
  const answers = new Map<number, string>();
  marks.forEach((mark, i) => {
    const start = mark.index + mark[0].length;
    const end = i + 1 < marks.length ? marks[i + 1].index : reply.length;
    const number = Number(mark[1]);
    const text = reply.slice(start, end).trim();
    if (number >= 1 && text !== "" && !answers.has(number)) answers.set(number, text);
  });
  return answers;
}
