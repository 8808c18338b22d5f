/**
 * {@linkcode createScanner}: a {@linkcode TextScanner} for the `guardrails` field of a process config.
 *
 * @module
 */

import { createBuiltinScanner, type DetectorGuardrails } from "./builtin_scanner.ts";
import type { TextScanner } from "./scan_result.ts";
import { type GuardrailScannerObject, isScannerObject, scannerObjectScanner } from "./scanner_object.ts";
import type { WindowOptions } from "./windows.ts";

/** The `guardrails` field: a scanner object, or declarative guardrails. */
export type GuardrailsInput = GuardrailScannerObject | DetectorGuardrails;

/** Options of {@linkcode createScanner}. */
export interface CreateScannerOptions extends WindowOptions {
  /**
   * For a scanner object: treat a window it fails on as clean instead of flagging `scanner_error`.
   * Declarative guardrails use their own `fail_open` and ignore this.
   * @default false
   */
  failOpen?: boolean;
}

/**
 * A scanner for `guardrails`. A scanner object is called window by window (see
 * `scannerObjectScanner` for the answers it may give); declarative guardrails run the chosen
 * built-in detectors and `block_patterns` window by window. Either way a detector or scanner that
 * fails flags `scanner_error` (fail closed) unless fail-open is asked for. Throws a TypeError for
 * anything else, and a RangeError for bad window options.
 *
 * @example
 * ```ts
 * import { createScanner } from "./create_scanner.ts";
 * const scanner = createScanner({ detectors: ["injection", "credentials"], fail_open: false });
 * const result = await scanner.scan("key: AKIAIOSFODNN7EXAMPLE");
 * console.log(result.categories); // ["aws_access_key"]
 * ```
 */
export function createScanner(config: GuardrailsInput, options: CreateScannerOptions = {}): TextScanner {
  if (isScannerObject(config)) return scannerObjectScanner(config, options);
  const declarative = config as Partial<DetectorGuardrails> | null;
  if (typeof declarative === "object" && declarative !== null && Array.isArray(declarative.detectors)) {
    return createBuiltinScanner(declarative as DetectorGuardrails, options);
  }
  throw new TypeError(
    "guardrails: expected a scanner object (scanText, scan_text, checkInput or check_input) or {detectors, block_patterns, fail_open}",
  );
}
