/**
 * How the answer of a scanner object is read: {@linkcode scannerVerdict}.
 *
 * @module
 */

import { isGuardrailViolation } from "./guardrail_violation.ts";

/** What a scanner object's answer means. */
export interface ScannerVerdict {
  /** True when the text is flagged. */
  flagged: boolean;
  /** Categories the scanner named (`["flagged"]` when it named none). Empty when clean. */
  categories: string[];
}

const FLAGGED_WORDS = new Set([
  "flagged",
  "blocked",
  "block",
  "unsafe",
  "reject",
  "rejected",
  "deny",
  "denied",
]);
const CLEAN_WORDS = new Set(["", "clean", "safe", "pass", "passed", "ok", "allow", "allowed"]);
/** Boolean fields that are true when the text is flagged. */
const FLAG_KEYS = ["flagged", "blocked", "is_injection", "isInjection", "unsafe"];
/** Boolean fields that are false when the text is flagged. */
const SAFE_KEYS = ["safe", "is_safe", "isSafe", "passed", "allowed"];
const LIST_KEYS = ["violations", "findings"];
const DEFAULT_CATEGORY = "flagged";

function categoryOf(value: unknown): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value.slice(0, 64);
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ["category", "type", "detector", "name"]) {
    if (typeof record[key] === "string" && record[key] !== "") return (record[key] as string).slice(0, 64);
  }
  return undefined;
}

function categoriesOf(value: unknown): string[] {
  const found = new Set<string>();
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const lists = [record.categories, ...LIST_KEYS.map((key) => record[key])];
    for (const list of lists) {
      if (Array.isArray(list)) { for (const item of list) found.add(categoryOf(item) ?? DEFAULT_CATEGORY); }
    }
    const single = typeof record.category === "string" ? categoryOf(record.category) : undefined;
    if (single) found.add(single);
  }
  return found.size > 0 ? [...found].sort() : [DEFAULT_CATEGORY];
}

/**
 * Reads what a scanner object's method returned (already awaited). Answers undefined when the shape
 * is not one of these (the caller treats that as a scanner error):
 *
 * - flagged: `true`; the strings `"flagged"`, `"blocked"`, `"block"`, `"unsafe"`, `"reject(ed)"`,
 *   `"deny"`, `"denied"` (any case); a non-empty array (of categories, or of objects with a
 *   `category`, `type`, `detector` or `name`); an object with `flagged`, `blocked`, `is_injection`,
 *   `isInjection` or `unsafe` true, or `safe`, `is_safe`, `isSafe`, `passed` or `allowed` false, or
 *   without those but with a non-empty `violations` or `findings` array;
 * - clean: `false`, `undefined`, `null`; the strings `""`, `"clean"`, `"safe"`, `"pass(ed)"`, `"ok"`,
 *   `"allow(ed)"`; an empty array; an object whose boolean fields say clean, or with only empty
 *   `violations`/`findings` arrays.
 *
 * Categories come from `categories` (strings or objects as above), `violations`, `findings` or
 * `category`; `"flagged"` when none is named. Our own `ScanResult` reads as itself.
 *
 * @example
 * ```ts
 * import { scannerVerdict } from "./scanner_verdict.ts";
 * console.log(scannerVerdict({ safe: false, category: "toxicity" })); // flagged, ["toxicity"]
 * console.log(scannerVerdict("ok")); // clean
 * ```
 */
export function scannerVerdict(value: unknown): ScannerVerdict | undefined {
  if (value === undefined || value === null || value === false) return { flagged: false, categories: [] };
  if (value === true) return { flagged: true, categories: [DEFAULT_CATEGORY] };
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (FLAGGED_WORDS.has(word)) return { flagged: true, categories: [DEFAULT_CATEGORY] };
    return CLEAN_WORDS.has(word) ? { flagged: false, categories: [] } : undefined;
  }
  if (Array.isArray(value)) {
    return value.length === 0
      ? { flagged: false, categories: [] }
      : { flagged: true, categories: categoriesOf({ categories: value }) };
  }
  if (typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  const flags = FLAG_KEYS.filter((key) => typeof record[key] === "boolean").map((key) => record[key]);
  const safes = SAFE_KEYS.filter((key) => typeof record[key] === "boolean").map((key) => !record[key]);
  const said = [...flags, ...safes];
  if (said.length === 0) {
    const lists = LIST_KEYS.map((key) => record[key]).filter(Array.isArray);
    if (lists.length === 0) return undefined;
    said.push(lists.some((list) => list.length > 0));
  }
  return said.includes(true)
    ? { flagged: true, categories: categoriesOf(record) }
    : { flagged: false, categories: [] };
}

/** Reads a thrown value: a guardrail violation is a flagged verdict, anything else undefined. */
export function thrownVerdict(error: unknown): ScannerVerdict | undefined {
  return isGuardrailViolation(error) ? { flagged: true, categories: categoriesOf(error) } : undefined;
}
