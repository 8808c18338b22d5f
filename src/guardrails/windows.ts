/**
 * Overlapping windows over a text (spec 000, "Messages and inbox" rule 8: guardrail scanning scans
 * content in overlapping 500-character windows).
 *
 * @module
 */

/** Characters per window. */
export const DEFAULT_WINDOW_SIZE = 500;

/**
 * Characters two neighbouring windows share. A phrase (or token) of up to this many characters is
 * wholly inside at least one window wherever it sits, so a detector working on one window at a time
 * still finds it. 100 covers every built-in pattern's distinctive part while keeping the extra work at
 * a quarter (each character is scanned 1.25 times).
 */
export const DEFAULT_OVERLAP = 100;

/** How a text is cut into windows. */
export interface WindowOptions {
  /** Characters per window, an integer >= 1. @default 500 */
  windowSize?: number;
  /** Characters neighbouring windows share, an integer from 0 to `windowSize - 1`. @default 100 */
  overlap?: number;
}

/** One window: where it starts in the whole text, and its text. */
export interface TextWindow {
  /** Offset of the window's first character in the whole text. */
  start: number;
  /** The window's text, at most `windowSize` characters. */
  text: string;
}

/** Window size and overlap with defaults filled and checked; throws a RangeError on bad values. */
export function resolveWindowOptions(options: WindowOptions = {}): Required<WindowOptions> {
  const windowSize = options.windowSize ?? DEFAULT_WINDOW_SIZE;
  const overlap = options.overlap ?? Math.min(DEFAULT_OVERLAP, Math.floor(windowSize / 5));
  if (!Number.isInteger(windowSize) || windowSize < 1) {
    throw new RangeError("windowSize must be an integer >= 1");
  }
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= windowSize) {
    throw new RangeError("overlap must be an integer from 0 to windowSize - 1");
  }
  return { windowSize, overlap };
}

/**
 * Cuts `text` into windows of `windowSize` characters, each starting `windowSize - overlap` after the
 * previous one; the last window ends at the end of the text. An empty text has no windows; a text no
 * longer than one window is one window. When only `windowSize` is given the overlap is
 * `min(100, windowSize / 5)`.
 *
 * @example
 * ```ts
 * import { windows } from "./windows.ts";
 * const parts = windows("a".repeat(1200)); // 500-character windows sharing 100 characters
 * console.log(parts.map((part) => part.start)); // [0, 400, 800]
 * ```
 */
export function windows(text: string, options?: WindowOptions): TextWindow[] {
  const { windowSize, overlap } = resolveWindowOptions(options);
  const step = windowSize - overlap;
  const parts: TextWindow[] = [];
  for (let start = 0; start < text.length; start += step) {
    parts.push({ start, text: text.slice(start, start + windowSize) });
    if (start + windowSize >= text.length) break;
  }
  return parts;
}
