/**
 * Glob patterns over POSIX relative paths, as used by the file-watch trigger's `patterns`.
 *
 * @module
 */

const SYNTAX = /[\\^$.*+?()[\]{}|/]/;

function escape(char: string): string {
  return SYNTAX.test(char) ? `\\${char}` : char;
}

/** Index of the `]` closing the class opened at `start`, or -1 (then `[` is literal). */
function classEnd(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === "!" || pattern[index] === "^") index++;
  if (pattern[index] === "]") index++;
  return pattern.indexOf("]", index);
}

function classSource(body: string): string {
  const negated = body.startsWith("!") || body.startsWith("^");
  const members = (negated ? body.slice(1) : body).replace(/[\\\]\[^]/g, "\\$&");
  return negated ? `[^/${members}]` : `[${members}]`;
}

/**
 * Compiles a glob pattern into an anchored regular expression over a POSIX path:
 * `*` matches any run of characters except `/`; `**` any run including `/` (a `**` followed by `/` may
 * match nothing at all, that slash included); `?` one character except `/`; `[abc]`, `[a-z]` and `[!x]`
 * (or `[^x]`) one character of (or not of) a class, never `/` when negated; `\x` the character `x`;
 * anything else itself. Names starting with a dot are not special.
 * Throws `SyntaxError` for an invalid class such as `[z-a]`.
 *
 * @example
 * ```ts
 * import { globToRegExp } from "./glob.ts";
 * globToRegExp("reports/**.json").test("reports/2024/q1.json"); // true
 * globToRegExp("data-[0-9]?.csv").test("data-17.csv"); // true
 * ```
 */
export function globToRegExp(pattern: string): RegExp {
  let source = "";
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === "*" && pattern[index + 1] === "*") {
      index += 2;
      while (pattern[index] === "*") index++;
      if (pattern[index] === "/") {
        source += "(?:.*/)?";
        index++;
      } else {
        source += ".*";
      }
      continue;
    }
    if (char === "[") {
      const end = classEnd(pattern, index);
      if (end !== -1) {
        source += classSource(pattern.slice(index + 1, end));
        index = end + 1;
        continue;
      }
    }
    if (char === "\\" && index + 1 < pattern.length) {
      source += escape(pattern[index + 1]);
      index += 2;
      continue;
    }
    source += char === "*" ? "[^/]*" : char === "?" ? "[^/]" : escape(char);
    index++;
  }
  return new RegExp(`^${source}$`, "u");
}

/**
 * A predicate that is true when a path matches any of `patterns`. A pattern without `/` is matched against
 * the path's base name; a pattern with `/` against the whole path, which is relative to the watched
 * directory with POSIX separators. Leading `./` and `/` in patterns and paths are ignored.
 * Throws `SyntaxError` (from {@linkcode globToRegExp}) for an invalid pattern.
 *
 * @example
 * ```ts
 * import { globMatcher } from "./glob.ts";
 * const matches = globMatcher(["*.csv", "reports/**.json"]);
 * matches("in/data.csv"); // true
 * matches("reports/2024/q1.json"); // true
 * ```
 */
export function globMatcher(patterns: readonly string[]): (path: string) => boolean {
  const compiled = patterns.map((pattern) => {
    const clean = trimLeading(pattern);
    return { regex: globToRegExp(clean), whole: clean.includes("/") };
  });
  return (path: string): boolean => {
    const relative = trimLeading(path);
    const base = relative.slice(relative.lastIndexOf("/") + 1);
    return compiled.some(({ regex, whole }) => regex.test(whole ? relative : base));
  };
}

/**
 * Whether `path` (relative, POSIX separators) matches the glob `pattern`; see {@linkcode globMatcher}.
 *
 * @example
 * ```ts
 * import { matchesGlob } from "./glob.ts";
 * matchesGlob("*.csv", "in/data.csv"); // true (base name)
 * matchesGlob("in/*.csv", "in/sub/data.csv"); // false
 * ```
 */
export function matchesGlob(pattern: string, path: string): boolean {
  return globMatcher([pattern])(path);
}

function trimLeading(path: string): string {
  return path.replace(/^(?:\.\/|\/)+/, "");
}
