/**
 * The injection detector: the patterns of `_injection_patterns.ts` over overlapping windows of the
 * normalised text, plus encoded payloads (`_encoded.ts`) decoded and scanned again, to a bounded depth.
 *
 * @module
 */

import { INJECTION_PATTERNS } from "./_injection_patterns.ts";
import { normalize } from "./_normalize.ts";
import { collectMatches, type Detection, type WindowScanOptions } from "./_window_scan.ts";
import { encodedPayloads } from "./_encoded.ts";
import type { ScanFinding } from "./scan_result.ts";
import { windows } from "./windows.ts";

/** Decoding levels: base64 of URL-escaped text is found, base64 of base64 of base64 is not scanned. */
const MAX_DEPTH = 3;

/** Skipped at the start of a match to report the offset of its first word rather than a separator. */
const LEAD = /^[^\p{L}\p{N}<[`{"'=#*|-]*/u;

const LOWER = INJECTION_PATTERNS.filter((pattern) => !pattern.cased);
const CASED = INJECTION_PATTERNS.filter((pattern) => pattern.cased);

const GATE_WORDS = [...new Set(LOWER.flatMap((pattern) => pattern.gate))].sort((a, b) => b.length - a.length);

/**
 * One pass of this regex over a window tells which patterns can match there (see `gate`). Longer
 * words come first, and a match also counts for every gate word inside it ("instructions" for
 * "instruction", "system" for "sys"), so a word is never hidden by a longer one at the same place.
 */
const GATE = new RegExp(GATE_WORDS.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
const GATE_HITS = new Map(
  GATE_WORDS.map((word) => [word, GATE_WORDS.filter((inner) => word.includes(inner))]),
);

function detect(text: string, patterns: typeof INJECTION_PATTERNS): Detection[] {
  const out: Detection[] = [];
  for (const { category, regex } of patterns) {
    collectMatches(regex, text, (match) => {
      const lead = LEAD.exec(match[0])?.[0].length ?? 0;
      return { category, offset: match.index + Math.min(lead, match[0].length - 1) };
    }, out);
  }
  return out;
}

/** The lower-case patterns whose gate words occur in `text`. */
function gated(text: string): typeof INJECTION_PATTERNS {
  const words = new Set<string>();
  for (const match of text.matchAll(GATE)) {
    for (const word of GATE_HITS.get(match[0]) ?? []) words.add(word);
  }
  return words.size === 0 ? [] : LOWER.filter((pattern) => pattern.gate.some((word) => words.has(word)));
}

/** Pattern findings, window by window; a window whose detection throws is a `scanner_error`. */
function patternFindings(text: string, options: WindowScanOptions): ScanFinding[] {
  const findings: ScanFinding[] = [];
  const failed = (offset: number) => {
    if (!options.failOpen) findings.push({ detector: "injection", category: "scanner_error", offset });
  };
  const normalized = normalize(text);
  for (const window of windows(normalized.text, options)) {
    const source = (offset: number) => normalized.map?.[offset] ?? offset;
    try {
      for (const { category, offset } of detect(window.text, gated(window.text))) {
        findings.push({ detector: "injection", category, offset: source(window.start + offset) });
      }
    } catch {
      failed(source(window.start));
    }
  }
  for (const window of windows(text, options)) {
    try {
      for (
        const { category, offset } of detect(
          window.text,
          CASED.filter((p) => p.gate.some((w) => window.text.includes(w))),
        )
      ) {
        findings.push({ detector: "injection", category, offset: window.start + offset });
      }
    } catch {
      failed(window.start);
    }
  }
  return findings;
}

/**
 * Every injection finding in `text`: the pattern categories window by window, then encoded payloads
 * found in the whole text (a base64 run may be longer than a window) whose decoded text has findings.
 */
export function injectionFindings(text: string, options: WindowScanOptions, depth = 0): ScanFinding[] {
  const findings = patternFindings(text, options);
  if (depth < MAX_DEPTH) {
    let encoded: Detection[];
    try {
      encoded = encodedPayloads(text, {
        known: findings,
        scanDecoded: (decoded) => injectionFindings(decoded, options, depth + 1),
      });
    } catch {
      encoded = options.failOpen ? [] : [{ category: "scanner_error", offset: 0 }];
    }
    for (const { category, offset } of encoded) findings.push({ detector: "injection", category, offset });
  }
  return findings;
}
