/**
 * Token estimates for sizes shown to users (the tool list a model must read, a prompt's size): about
 * four characters a token, the rule of thumb for English text and JSON with common tokenizers. Shown as
 * estimates ("~44k tokens"), never used to bill.
 *
 * @module
 */

/** Characters per token of the estimate. */
export const CHARS_PER_TOKEN = 4;

/** Estimated tokens of `text`. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
