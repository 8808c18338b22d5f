/**
 * Putting plan text into generated files safely: values only ever enter code as `JSON.stringify`
 * literals, comments are kept on their line and cannot close a block comment, and Markdown cells
 * cannot break their table or inject markup.
 *
 * @module
 */

import { scrubText } from "../_scrub.ts";

/** `value` as a TypeScript/JSON literal. */
export function literal(value: unknown): string {
  return JSON.stringify(value);
}

/** `value` as an indented JSON literal (2 spaces), continuation lines indented by `indent`. */
export function blockLiteral(value: unknown, indent = ""): string {
  return JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);
}

/**
 * `text` made safe for a `//` comment or a line of a `/** … *\/` block: controls scrubbed, line
 * breaks folded into spaces, `*\/` broken up, cut to `max` characters.
 *
 * @example
 * ```ts
 * import { commentText } from "./code_text.ts";
 * commentText("Lists pets *\/ evil();\nsecond line"); // "Lists pets * / evil(); second line"
 * ```
 */
export function commentText(text: string, max = 160): string {
  const line = scrubText(text).replace(/[\r\n\u2028\u2029\t]+/g, " ").replaceAll("*/", "* /").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The first line of `text` (its summary), for comments and tables. */
export function firstLine(text: string): string {
  return text.trim().split(/\r?\n/, 1)[0] ?? "";
}

/**
 * `text` as inline Markdown: controls scrubbed, line breaks folded, and the characters that start
 * markup or break a table cell (`\ ` `` ` `` `* _ [ ] < > | #`) escaped.
 *
 * @example
 * ```ts
 * import { markdownText } from "./code_text.ts";
 * markdownText("a|b <script>"); // "a\\|b \\<script\\>"
 * ```
 */
export function markdownText(text: string, max = 300): string {
  const line = scrubText(text).replace(/[\r\n\u2028\u2029\t]+/g, " ").trim();
  const cut = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  return cut.replace(/[\\`*_[\]<>|#]/g, (char) => `\\${char}`);
}

/** `text` as Markdown inline code (backticks inside are replaced, the span cannot be closed early). */
export function markdownCode(text: string): string {
  return `\`${scrubText(text).replace(/[\r\n]+/g, " ").replaceAll("`", "'")}\``;
}
