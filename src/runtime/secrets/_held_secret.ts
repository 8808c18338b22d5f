/**
 * A secret value held as bytes, and redaction of held values in text.
 *
 * @module
 */

/** One held value. */
export interface HeldSecret {
  /** The value as UTF-8 bytes (zero-filled at revoke). */
  bytes: Uint8Array;
  /** Expiry in epoch ms, or null for none. */
  expiresAt: number | null;
  /** Time of the rotation that set it, epoch ms. */
  rotatedAt?: number;
}

/**
 * `text` with every non-empty value of `held` (and its JSON-escaped form) replaced by `mask`, longest
 * values first so a value holding another is masked whole.
 */
export function redactText(text: string, held: readonly Uint8Array[], mask: string): string {
  const decoder = new TextDecoder();
  const forms = new Set<string>();
  for (const bytes of held) {
    const value = decoder.decode(bytes);
    if (value === "" || /^\0+$/.test(value)) continue;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
  }
  let result = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    if (form !== "") result = result.replaceAll(form, mask);
  }
  return result;
}
