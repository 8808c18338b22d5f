/**
 * Scanner objects (`guardrails` given in code as an object with a `scanText`, `scan_text`,
 * `checkInput` or `check_input` method) as {@linkcode TextScanner}s.
 *
 * @module
 */

import { type ScanFinding, type ScanResult, scanResult, type TextScanner } from "./scan_result.ts";
import { scannerVerdict, thrownVerdict } from "./scanner_verdict.ts";
import { resolveWindowOptions, type WindowOptions, windows } from "./windows.ts";

/** Method names by which a scanner object can scan text, in the order they are looked for. */
export const SCANNER_METHODS = ["scanText", "scan_text", "checkInput", "check_input"] as const;

/** A programmatic scanner: an object with at least one of the {@linkcode SCANNER_METHODS}. */
export interface GuardrailScannerObject {
  /** Scans text (camelCase form). */
  scanText?(text: string): unknown;
  /** Scans text (snake_case form). */
  scan_text?(text: string): unknown;
  /** Checks input text (camelCase form). */
  checkInput?(text: string): unknown;
  /** Checks input text (snake_case form). */
  check_input?(text: string): unknown;
}

/** Options of {@linkcode scannerObjectScanner}. */
export interface ScannerObjectOptions extends WindowOptions {
  /**
   * Treat a window the scanner fails on (throws something other than a guardrail violation, or
   * answers a shape it cannot be read as) as clean instead of flagging `scanner_error`.
   * @default false
   */
  failOpen?: boolean;
}

/** True when `value` is an object with one of the {@linkcode SCANNER_METHODS}. */
export function isScannerObject(value: unknown): value is GuardrailScannerObject {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return SCANNER_METHODS.some((method) => typeof record[method] === "function");
}

/**
 * Wraps a scanner object: each window of the text is passed to its first scanning method (sync or
 * async, called on the object) and the answer read by `scannerVerdict`; a thrown guardrail violation
 * flags the window. The first flagged window ends the scan (findings at its start, detector
 * `scanner`), so a costly scanner is not called on the rest of a text already blocked.
 */
export function scannerObjectScanner(
  scanner: GuardrailScannerObject,
  options: ScannerObjectOptions = {},
): TextScanner {
  const method = SCANNER_METHODS.find((name) => typeof scanner[name] === "function");
  if (method === undefined) {
    throw new TypeError(`guardrails: a scanner object needs a ${SCANNER_METHODS.join(", ")} method`);
  }
  const call = scanner[method] as (text: string) => unknown;
  const failOpen = options.failOpen ?? false;
  const windowOptions = resolveWindowOptions(options);
  return {
    async scan(text: string): Promise<ScanResult> {
      for (const window of windows(text, windowOptions)) {
        let verdict;
        try {
          verdict = scannerVerdict(await call.call(scanner, window.text));
        } catch (error) {
          verdict = thrownVerdict(error);
        }
        if (verdict === undefined) {
          if (failOpen) continue;
          return scanResult([{ detector: "scanner", category: "scanner_error", offset: window.start }]);
        }
        if (verdict.flagged) {
          const findings: ScanFinding[] = verdict.categories.map((category) => ({
            detector: "scanner",
            category,
            offset: window.start,
          }));
          return scanResult(findings);
        }
      }
      return scanResult([]);
    },
  };
}
