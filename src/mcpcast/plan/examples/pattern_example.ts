/**
 * A short string that matches a JSON Schema `pattern` (an ECMA-262 regular expression), for worked
 * examples: `^\d+\.\d+\.\d+$` gives `1.1.1`, `^sha256:[a-f0-9]{64}$` gives `sha256:aaa…`. Each part is
 * written the shortest way it can match (the first alternative, the fewest repetitions); the result is
 * then tested against the pattern itself, so a pattern this does not understand (lookarounds,
 * back-references, or a combination the shortest choice cannot satisfy) yields `undefined`, never a
 * wrong example.
 *
 * @module
 */

/** Longest example written; a pattern asking for more (`a{100000}`) gets none. */
const MAX_EXAMPLE_LENGTH = 1024;

/** Characters tried, in order, for a negated class (`[^,]`) or a class escape (`\S`). */
const CANDIDATES = "a1A_-x. ";

class Unsupported extends Error {}

/**
 * A string matching `pattern`, or `undefined` when none was found (see the module doc).
 *
 * @example
 * ```ts
 * import { patternExample } from "./pattern_example.ts";
 * patternExample("^[A-Z]{2}-\\d{4}$"); // "AA-1111"
 * patternExample("^(?=x)"); // undefined (lookarounds are not written)
 * ```
 */
export function patternExample(pattern: string): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
  try {
    const reader = new PatternReader(pattern);
    const text = reader.alternation();
    if (!reader.done()) return undefined;
    return text.length <= MAX_EXAMPLE_LENGTH && regex.test(text) ? text : undefined;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/** A recursive-descent reader of a pattern that writes the shortest text of each part as it goes. */
class PatternReader {
  #source: string;
  #at = 0;

  constructor(source: string) {
    this.#source = source;
  }

  done(): boolean {
    return this.#at >= this.#source.length;
  }

  /** `a|b|c`: the first alternative. */
  alternation(): string {
    const first = this.#sequence();
    while (this.#peek() === "|") {
      this.#at += 1;
      this.#sequence();
    }
    return first;
  }

  #sequence(): string {
    let text = "";
    while (!this.done() && this.#peek() !== "|" && this.#peek() !== ")") {
      const atom = this.#atom();
      const times = this.#quantifier();
      if (atom.length * times > MAX_EXAMPLE_LENGTH) throw new Unsupported();
      text += atom.repeat(times);
      if (text.length > MAX_EXAMPLE_LENGTH) throw new Unsupported();
    }
    return text;
  }

  #atom(): string {
    const char = this.#next();
    switch (char) {
      case "^":
      case "$":
        return "";
      case ".":
        return "a";
      case "(":
        return this.#group();
      case "[":
        return this.#characterClass();
      case "\\":
        return this.#escape(false);
      case "*":
      case "+":
      case "?":
      case "{":
        // A quantifier with nothing before it (`{` alone is a literal only without the u flag).
        throw new Unsupported();
      default:
        return char;
    }
  }

  #group(): string {
    if (this.#peek() === "?") {
      if (this.#source[this.#at + 1] !== ":") throw new Unsupported(); // lookaround or named group
      this.#at += 2;
    }
    const text = this.alternation();
    if (this.#next() !== ")") throw new Unsupported();
    return text;
  }

  /** `[a-f0-9]`: the first member; `[^,]`: the first candidate the class admits. */
  #characterClass(): string {
    const negated = this.#peek() === "^";
    if (negated) this.#at += 1;
    let body = "";
    let first: string | undefined;
    while (this.#peek() !== "]") {
      if (this.done()) throw new Unsupported();
      const start = this.#at;
      const member = this.#next() === "\\" ? this.#escape(true) : this.#source[start];
      first ??= member;
      body += this.#source.slice(start, this.#at);
    }
    this.#at += 1;
    if (!negated && first !== undefined) return first;
    return pick(new RegExp(`[${negated ? "^" : ""}${body}]`, "u"));
  }

  /** After a backslash: a class escape's first fitting character, or the escaped character. */
  #escape(inClass: boolean): string {
    const char = this.#next();
    switch (char) {
      case "d":
        return "1";
      case "w":
        return "a";
      case "s":
        return " ";
      case "D":
      case "W":
      case "S":
        return pick(new RegExp(`\\${char}`, "u"));
      case "b":
        if (inClass) return "\b";
        return "";
      case "B":
        throw new Unsupported();
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      case "f":
        return "\f";
      case "v":
        return "\v";
      case "0":
        return "\0";
      case "x":
        return String.fromCharCode(this.#hex(2));
      case "u":
        if (this.#peek() === "{") throw new Unsupported();
        return String.fromCharCode(this.#hex(4));
      default:
        if (/[1-9kpPc]/.test(char)) throw new Unsupported(); // back-references, properties, controls
        return char;
    }
  }

  #hex(digits: number): number {
    const text = this.#source.slice(this.#at, this.#at + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(text)) throw new Unsupported();
    this.#at += digits;
    return parseInt(text, 16);
  }

  /** How many times the atom before it is written: the least the quantifier allows (`*` and `?`: 0). */
  #quantifier(): number {
    const char = this.#peek();
    let times = 1;
    if (char === "*" || char === "?") {
      this.#at += 1;
      times = 0;
    } else if (char === "+") {
      this.#at += 1;
    } else if (char === "{") {
      const match = /^\{(\d+)(,\d*)?\}/.exec(this.#source.slice(this.#at));
      if (match === null) throw new Unsupported();
      this.#at += match[0].length;
      times = Number(match[1]);
    } else {
      return 1;
    }
    if (this.#peek() === "?") this.#at += 1; // lazy: the same least count
    return times;
  }

  #peek(): string | undefined {
    return this.#source[this.#at];
  }

  #next(): string {
    if (this.done()) throw new Unsupported();
    return this.#source[this.#at++];
  }
}

/** The first of {@link CANDIDATES} that `matcher` (one character class) admits. */
function pick(matcher: RegExp): string {
  for (const candidate of CANDIDATES) if (matcher.test(candidate)) return candidate;
  throw new Unsupported();
}
