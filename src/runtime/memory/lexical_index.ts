/**
 * Lexical relevance for long-term memory: cosine similarity of TF-IDF term vectors.
 *
 * Text is lowercased, split on anything that is not a letter or digit, and rid of one-character terms
 * and common English stop words. A term's weight in a text is its count times
 * `idf = ln(1 + (N + 1) / (df + 1))`, where `N` is the number of stored texts and `df` the number holding
 * the term; the score of a stored text for a query is the cosine of their weight vectors, from 0 (no term
 * in common) to 1 (the same terms in the same proportions).
 *
 * @module
 */

const STOP_WORDS = new Set(
  ("a an and are as at be been but by do does for from had has have he her his i if in into is it its me " +
    "my no not of on or our she so that the their them then there these they this to too was we were what " +
    "when where which who why will with you your")
    .split(" "),
);

/** The terms of `text` with their counts. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (term.length < 2 || STOP_WORDS.has(term)) continue;
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

/** Term counts of many texts, with document frequencies, scoring queries against them. */
export class LexicalIndex {
  #docs = new Map<string, Map<string, number>>();
  #df = new Map<string, number>();

  /** Number of indexed texts. */
  get size(): number {
    return this.#docs.size;
  }

  /** Indexes `text` under `id` (replacing an earlier text with that id). */
  add(id: string, text: string): void {
    this.remove(id);
    const counts = termCounts(text);
    this.#docs.set(id, counts);
    for (const term of counts.keys()) this.#df.set(term, (this.#df.get(term) ?? 0) + 1);
  }

  /** Forgets `id`; answers whether it was indexed. */
  remove(id: string): boolean {
    const counts = this.#docs.get(id);
    if (!counts) return false;
    this.#docs.delete(id);
    for (const term of counts.keys()) {
      const df = (this.#df.get(term) ?? 1) - 1;
      if (df <= 0) this.#df.delete(term);
      else this.#df.set(term, df);
    }
    return true;
  }

  /** Score from 0 to 1 of every indexed id sharing a term with `query` (ids scoring 0 are left out). */
  score(query: string): Map<string, number> {
    const scores = new Map<string, number>();
    const queryCounts = termCounts(query);
    if (queryCounts.size === 0) return scores;
    const idf = (term: string) => Math.log(1 + (this.#docs.size + 1) / ((this.#df.get(term) ?? 0) + 1));
    const queryWeights = new Map([...queryCounts].map(([term, count]) => [term, count * idf(term)]));
    const queryNorm = norm(queryWeights.values());
    for (const [id, counts] of this.#docs) {
      let dot = 0;
      for (const [term, weight] of queryWeights) {
        const count = counts.get(term);
        if (count !== undefined) dot += weight * count * idf(term);
      }
      if (dot === 0) continue;
      const docNorm = norm(Array.from(counts, ([term, count]) => count * idf(term)));
      scores.set(id, Math.min(1, dot / (queryNorm * docNorm)));
    }
    return scores;
  }
}

function norm(weights: Iterable<number>): number {
  let sum = 0;
  for (const weight of weights) sum += weight * weight;
  return Math.sqrt(sum);
}
