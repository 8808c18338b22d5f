/**
 * The engine of the built-in scanners: runs window detectors over overlapping windows and maps what
 * they find back to offsets in the whole text.
 *
 * @module
 */

import type { ScanFinding } from "./scan_result.ts";
import { type WindowOptions, windows } from "./windows.ts";

/** Something a window detector found: a category at an offset in the window. */
export interface Detection {
  /** What was found. */
  category: string;
  /** Offset in the window's text. */
  offset: number;
}

/** A detector that reads one window at a time. */
export interface WindowDetector {
  /** The detector's name, reported as {@linkcode ScanFinding.detector}. */
  name: string;
  /** Finds things in one window's text. May throw; the engine reports `scanner_error`. */
  detect(text: string): Detection[];
}

/** How the engine scans. */
export interface WindowScanOptions extends WindowOptions {
  /** A detector that throws is skipped instead of reported as `scanner_error`. @default false */
  failOpen?: boolean;
}

/** At most this many matches of one regex are reported per window (the rest add nothing). */
export const MATCHES_PER_WINDOW = 8;

/** Pushes up to {@linkcode MATCHES_PER_WINDOW} matches of a global `regex` in `text` to `out`. */
export function collectMatches(
  regex: RegExp,
  text: string,
  found: (match: RegExpExecArray) => Detection | undefined,
  out: Detection[],
): void {
  regex.lastIndex = 0;
  let count = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    if (match[0] === "") regex.lastIndex++;
    const detection = found(match);
    if (detection) {
      out.push(detection);
      if (++count >= MATCHES_PER_WINDOW) break;
    }
  }
  regex.lastIndex = 0;
}

/** Runs every detector over every window of `text`; findings carry offsets in `text`. */
export function scanWindows(
  text: string,
  detectors: readonly WindowDetector[],
  options: WindowScanOptions = {},
): ScanFinding[] {
  const findings: ScanFinding[] = [];
  for (const window of windows(text, options)) {
    for (const detector of detectors) {
      let detections: Detection[];
      try {
        detections = detector.detect(window.text);
      } catch {
        if (!options.failOpen) {
          findings.push({ detector: detector.name, category: "scanner_error", offset: window.start });
        }
        continue;
      }
      for (const { category, offset } of detections) {
        findings.push({ detector: detector.name, category, offset: window.start + offset });
      }
    }
  }
  return findings;
}
