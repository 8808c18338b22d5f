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
 * The texts to mask for `held`: every non-empty value and its JSON-escaped form, longest first so a value
 * holding another is masked whole.
 */
export function redactionForms(held: readonly Uint8Array[]): string[] {
  const decoder = new TextDecoder();
  const forms = new Set<string>();
  for (const bytes of held) {
    const value = decoder.decode(bytes);
    if (value === "" || /^\0+$/.test(value)) continue;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
  }
  return [...forms].filter((form) => form !== "").sort((a, b) => b.length - a.length);
}

/** `text` with every one of `forms` replaced by `mask`, in order. */
export function maskForms(text: string, forms: readonly string[], mask: string): string {
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.replaceAll(form, mask);
  return result;
}
