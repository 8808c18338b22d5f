/**
 * Scrubbing text that came from a spec (or a plan) before it reaches a terminal, a generated file or
 * a model: control characters could rewrite a terminal or hide text, and lone surrogates are not
 * valid UTF-8.
 *
 * @module
 */

// C0 controls except \t (0x09) and \n (0x0A), DEL (0x7F) and C1 controls (0x80–0x9F): matching them
// is the point.
// deno-lint-ignore no-control-regex
const CONTROLS = /[\x00-\x08\x0B-\x1F\x7F-\x9F]/;
// deno-lint-ignore no-control-regex
const CONTROLS_ALL = /[\x00-\x08\x0B-\x1F\x7F-\x9F]/g;

/**
 * `text` without C0 control characters (except `\n` and `\t`), DEL and C1 control characters, and
 * with lone surrogates replaced by U+FFFD. Returns `text` itself when there is nothing to change.
 *
 * @example
 * ```ts
 * scrubText("ok\x1b[31m red\u0085"); // "ok[31m red"
 * ```
 */
export function scrubText(text: string): string {
  let out = text;
  if (CONTROLS.test(out)) out = out.replace(CONTROLS_ALL, "");
  if (!out.isWellFormed()) out = out.toWellFormed();
  return out;
}
