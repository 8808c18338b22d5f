/**
 * The JSON object in a model's reply: from a fenced block, the bare text, or the span from the first `{`
 * to the last `}`; the first candidate that parses to an object wins.
 *
 * @module
 */

const FENCE = /```(?:json|JSON)?\s*\n([\s\S]*?)```/g;

/** The first JSON object found in `text`, or `undefined` when there is none. */
export function jsonObjectIn(text: string): Record<string, unknown> | undefined {
  const candidates = [...text.matchAll(FENCE)].map((match) => match[1]);
  candidates.push(text);
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first !== -1 && last > first) candidates.push(text.slice(first, last + 1));
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate.trim());
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        return value as Record<string, unknown>;
      }
    } catch {
      // the next candidate
    }
  }
  return undefined;
}
