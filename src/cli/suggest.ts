/**
 * "Did you mean": the known word nearest to a mistyped flag or command.
 *
 * @module
 */

/**
 * The candidate `input` most likely stands for: the only one it is a prefix of, else the only one
 * nearest to it within two edits (insert, delete, replace, or swap two neighbours), leading dashes
 * aside; undefined when none is that close or two are equally close.
 *
 * @example
 * ```ts
 * import { suggest } from "./suggest.ts";
 * suggest("--prot", ["--host", "--port"]); // "--port"
 * suggest("serv", ["runtime", "serve"]); // "serve"
 * ```
 */
export function suggest(input: string, candidates: readonly string[]): string | undefined {
  const word = input.replace(/^-+/, "");
  if (word === "") return undefined;
  const prefixed = candidates.filter((candidate) => candidate.startsWith(input) && candidate !== input);
  if (prefixed.length === 1) return prefixed[0];
  const limit = Math.min(2, word.length - 1);
  const near = candidates.map((candidate) => ({ candidate, distance: editDistance(input, candidate) }))
    .filter(({ distance }) => distance <= limit);
  const nearest = Math.min(...near.map(({ distance }) => distance));
  const best = near.filter(({ distance }) => distance === nearest);
  return best.length === 1 ? best[0].candidate : undefined;
}

/** `"; did you mean X?"` for the suggestion {@linkcode suggest} finds, else `""`. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const found = suggest(input, candidates);
  return found === undefined ? "" : `; did you mean ${found}?`;
}

/** Optimal string alignment distance: insertions, deletions, replacements and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}
