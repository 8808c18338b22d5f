/**
 * What a scan answers: {@linkcode ScanResult}, its {@linkcode ScanFinding}s, and the
 * {@linkcode TextScanner} interface every scanner of this area implements.
 *
 * @module
 */

/** One thing a detector found. It never carries the matched text, which may be a secret. */
export interface ScanFinding {
  /** Which detector found it: `"injection"`, `"credentials"`, `"pii"`, `"pattern"` or `"scanner"`. */
  detector: string;
  /** What was found, e.g. `"instruction_override"`, `"aws_access_key"`, `"email"`, `"scanner_error"`. */
  category: string;
  /** Offset (in UTF-16 code units) in the scanned text where it starts. */
  offset: number;
}

/** The answer of a scan. */
export interface ScanResult {
  /** True when anything was found (the text should be blocked). */
  flagged: boolean;
  /** The categories of the findings, sorted and unique. */
  categories: string[];
  /** What was found, sorted by offset, then detector and category, without duplicates. */
  findings: ScanFinding[];
}

/** Something that scans text. Every scanner of this area implements it. */
export interface TextScanner {
  /** Scans `text` and answers what was found. Never rejects: a failing detector is a finding. */
  scan(text: string): Promise<ScanResult>;
}

function compareFindings(a: ScanFinding, b: ScanFinding): number {
  return a.offset - b.offset || (a.detector < b.detector ? -1 : a.detector > b.detector ? 1 : 0) ||
    (a.category < b.category ? -1 : a.category > b.category ? 1 : 0);
}

/**
 * Builds a {@linkcode ScanResult} from findings in any order, possibly repeated (overlapping windows
 * find the same thing twice): sorts them, drops duplicates and lists their categories.
 *
 * @example
 * ```ts
 * import { scanResult } from "./scan_result.ts";
 * const result = scanResult([
 *   { detector: "pii", category: "email", offset: 9 },
 *   { detector: "pii", category: "email", offset: 9 },
 * ]);
 * console.log(result); // { flagged: true, categories: ["email"], findings: [one finding] }
 * ```
 */
export function scanResult(findings: Iterable<ScanFinding>): ScanResult {
  const unique = new Map<string, ScanFinding>();
  for (const finding of findings) {
    const key = `${finding.detector}\u0000${finding.category}\u0000${finding.offset}`;
    if (!unique.has(key)) {
      unique.set(key, { detector: finding.detector, category: finding.category, offset: finding.offset });
    }
  }
  const sorted = [...unique.values()].sort(compareFindings);
  const categories = [...new Set(sorted.map((finding) => finding.category))].sort();
  return { flagged: sorted.length > 0, categories, findings: sorted };
}
