/**
 * Deep redaction: every string in a JSON-like value (object keys too) passed through a text redactor, so
 * secret values become `[REDACTED]` in what is journaled and reported.
 *
 * @module
 */

/** `value` with every string, and every object key, passed through `redact`. */
export function redactStrings<T>(value: T, redact: (text: string) => string): T {
  return walk(value, redact, 0) as T;
}

function walk(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return redact(value);
  if (depth > 64 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => walk(item, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[redact(key)] = walk(item, redact, depth + 1);
  return out;
}
