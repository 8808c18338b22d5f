/**
 * Short forms of the prose a tool list carries: the first sentences of a description within a bound,
 * and whether a parameter's description only restates its name.
 *
 * @module
 */

/** Longest tool description {@linkcode leadSentences} keeps for a tool, in characters. */
export const TOOL_DESCRIPTION_MAX = 200;
/** Longest parameter description kept, in characters. */
export const PARAM_DESCRIPTION_MAX = 120;

/** Words that carry no meaning of their own when comparing a description with a name. */
const FILLER = new Set([
  "a",
  "an",
  "the",
  "of",
  "for",
  "to",
  "in",
  "this",
  "that",
  "is",
  "its",
  "be",
  "value",
  "parameter",
  "field",
  "given",
  "specified",
  "optional",
  "required",
]);

/**
 * Markdown links and images become their text; HTML tags, backticks and `*` emphasis go (never `_`,
 * which identifiers hold); spaces collapse.
 */
function plainText(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<\/?[A-Za-z][^>]{0,80}>/g, " ")
    .replace(/`/g, "")
    .replace(/\*{1,3}([^*\n]+)\*{1,3}/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** `text` cut at a word boundary to at most `max` characters, with an ellipsis when cut. */
function clipWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.]+$/, "")}…`;
}

/** The sentences of `text` (split after `.`, `!` or `?` followed by a space). */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=\S)/).filter((part) => part !== "");
}

/**
 * The first sentences of `text` (its first paragraph, Markdown reduced to plain text) that fit in
 * `max` characters, at most `count` of them; the first sentence alone is cut at a word boundary when
 * it does not fit.
 *
 * @example
 * ```ts
 * import { leadSentences } from "./compact_text.ts";
 * leadSentences("Lists pets. Paged by `cursor`; see [docs](https://x.example).", 20); // "Lists pets."
 * ```
 */
export function leadSentences(text: string, max: number, count: number = Infinity): string {
  const paragraph = text.trim().split(/\n\s*\n/)[0] ?? "";
  const parts = sentences(plainText(paragraph));
  if (parts.length === 0) return "";
  let out = parts[0];
  if (out.length > max) return clipWords(out, max);
  for (const part of parts.slice(1, count)) {
    if (out.length + 1 + part.length > max) break;
    out = `${out} ${part}`;
  }
  return out;
}

/** The lower-case words of a name or text (`petId`, `pet_id` and "Pet ID" give `pet`, `id`). */
export function wordsOf(text: string): string[] {
  return text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/**
 * Whether `description` says nothing beyond the parameter `name` ("The pet id." for `petId`): every
 * word of it, filler words aside, is a word of the name (or its plural).
 */
export function restatesName(description: string, name: string): boolean {
  const nameWords = new Set(wordsOf(name));
  const words = wordsOf(description).filter((word) => !FILLER.has(word));
  return words.every((word) =>
    nameWords.has(word) || (word.endsWith("s") && nameWords.has(word.slice(0, -1)))
  );
}
