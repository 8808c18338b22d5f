/**
 * The text the injection patterns read: zero-width and direction-control characters removed, simple
 * leetspeak undone (`0`->o, `1`->i, `3`->e, `4`->a, `5`->s, `7`->t, `@`->a, `$`->s), full-width forms
 * and common Cyrillic/Greek look-alikes mapped to ASCII letters, Unicode tag characters (invisible
 * ASCII, U+E0020-U+E007F) read as the ASCII they spell, all in lower case (so patterns run
 * without the twice slower `i` flag). Every kept character maps to one character, so an offset in the
 * result maps back to the source through `map`.
 *
 * @module
 */

/** A normalised text and, when characters were removed, where each of its characters came from. */
export interface Normalized {
  /** The normalised text, in lower case. */
  text: string;
  /** `map[i]` is the source offset of `text[i]`; undefined when offsets are unchanged. */
  map?: number[];
}

const LEET_LETTERS: Record<string, string> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "@": "a",
  "$": "s",
};
const NON_ASCII = /[\u0080-\uffff]/;
const INVISIBLE =
  /^[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]$/;
const TAG_FIRST = 0xe0000;
const TAG_LAST = 0xe007f;
const LOOK_ALIKES: Record<string, string> = {
  "а": "a",
  "е": "e",
  "о": "o",
  "р": "p",
  "с": "c",
  "у": "y",
  "х": "x",
  "і": "i",
  "ѕ": "s",
  "ј": "j",
  "ԁ": "d",
  "ο": "o",
  "α": "a",
  "ι": "i",
  "ε": "e",
  "ν": "v",
  "τ": "t",
};

const LEET_ANY = /[013457@$]/;

function unleet(text: string): string {
  if (!LEET_ANY.test(text)) return text;
  let out = text;
  for (const [digit, letter] of Object.entries(LEET_LETTERS)) out = out.replaceAll(digit, letter);
  return out;
}

/** Normalises `source` for pattern matching (see the module doc). */
export function normalize(source: string): Normalized {
  if (!NON_ASCII.test(source)) return { text: unleet(source.toLowerCase()) };
  let text = "";
  const map: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code < 0x80) {
      text += LEET_LETTERS[source[i]] ?? source[i].toLowerCase();
      map.push(i);
      continue;
    }
    const wide = code >= 0xd800 && code <= 0xdbff && i + 1 < source.length;
    const ch = wide ? source.slice(i, i + 2) : source[i];
    const point = ch.codePointAt(0) ?? code;
    if (point >= TAG_FIRST && point <= TAG_LAST) {
      // Unicode tag characters spell invisible ASCII ("ASCII smuggling"): read them as that ASCII.
      const ascii = String.fromCharCode(point - TAG_FIRST);
      text += LEET_LETTERS[ascii] ?? ascii.toLowerCase();
      map.push(i);
    } else if (!INVISIBLE.test(ch)) {
      const folded = LOOK_ALIKES[ch.toLowerCase()] ?? ch.normalize("NFKC");
      // Keep one character per source character, so offsets map back.
      const kept = folded.length === 1 ? unleet(folded) : ch;
      const small = kept.toLowerCase();
      text += small.length === kept.length ? small : kept;
      map.push(i);
      if (folded.length !== 1 && wide) map.push(i + 1);
    }
    if (wide) i++;
  }
  return { text, map };
}
