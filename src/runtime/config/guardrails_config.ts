/**
 * GuardrailsConfig: either a programmatic scanner object (kept as given) or a declarative detector list.
 *
 * @module
 */

import { z } from "zod";
import { boolean, list, oneOf, type Resolved, strictObject, string } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";

/** Method names by which a scanner object can scan text. */
export const SCANNER_METHODS = ["scanText", "scan_text", "checkInput", "check_input"] as const;

/** A programmatic scanner: an object with at least one of the {@linkcode SCANNER_METHODS}. */
export interface GuardrailScanner {
  /** Scans text (camelCase form). */
  scanText?(text: string): unknown;
  /** Scans text (snake_case form). */
  scan_text?(text: string): unknown;
  /** Checks input text (camelCase form). */
  checkInput?(text: string): unknown;
  /** Checks input text (snake_case form). */
  check_input?(text: string): unknown;
}

/** True when `value` is an object with a scanning method. */
export function isGuardrailScanner(value: unknown): value is GuardrailScanner {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return SCANNER_METHODS.some((method) => typeof record[method] === "function");
}

/** A built-in detector: prompt injection, credentials (keys, tokens) or personal data. */
export type GuardrailDetector = "injection" | "credentials" | "pii";

/** Built-in detector names of declarative guardrails. */
export const GUARDRAIL_DETECTORS = ["injection", "credentials", "pii"] as const;

/** Declarative guardrails as written. */
export interface DeclarativeGuardrailsInput {
  /** Detectors that scan text. A non-empty list. */
  detectors: GuardrailDetector[];
  /** Extra regular expressions (JavaScript syntax); text matching any of them is blocked. */
  block_patterns?: string[];
  /**
   * Let text through when a detector cannot run. When false such text is blocked (fail closed).
   * @default false
   */
  fail_open?: boolean;
}

/** Declarative guardrails with every default filled (`block_patterns` has none). */
export type DeclarativeGuardrails = Resolved<DeclarativeGuardrailsInput, "block_patterns">;

/** The `guardrails` field as written: a scanner object (configs built in code) or declarative guardrails. */
export type GuardrailsConfigInput = GuardrailScanner | DeclarativeGuardrailsInput;

/** The `guardrails` field, resolved: the scanner object itself, or declarative guardrails. */
export type GuardrailsConfig = GuardrailScanner | DeclarativeGuardrails;

function compiles(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const declarativeGuardrails = strictObject({
  detectors: list(
    oneOf(GUARDRAIL_DETECTORS),
    `a non-empty list of detectors (injection, credentials, pii)`,
    1,
  ),
  block_patterns: list(
    string("a regular expression").refine(compiles, { error: "a valid regular expression" }),
    "a list of regular expressions",
  ).optional(),
  fail_open: boolean().default(false),
});

/** Declarative guardrails: which detectors run, extra patterns to block, and fail-closed behaviour. */
export const DeclarativeGuardrailsSchema: z.ZodType<DeclarativeGuardrails, DeclarativeGuardrailsInput> =
  exactly(declarativeGuardrails);

const SCANNER_WORDS = "a scanner object with a scanText, scan_text, checkInput or check_input method";

/** The `guardrails` field: a scanner object (not copied) or declarative guardrails. */
export const GuardrailsConfigSchema: z.ZodType<GuardrailsConfig, GuardrailsConfigInput> = exactly(z.union([
  z.custom<GuardrailScanner>(isGuardrailScanner, { error: SCANNER_WORDS, params: { describeInput: true } }),
  declarativeGuardrails,
], { error: `${SCANNER_WORDS}, or an object {detectors, block_patterns, fail_open}` }));
