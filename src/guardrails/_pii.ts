/**
 * The PII detector: e-mail addresses, phone numbers (international `+` form and North American
 * `(555) 123-4567` form), payment card numbers (known issuer prefix and a valid Luhn check digit),
 * IBANs (valid mod-97 checksum) and US social security numbers (`123-45-6789`, invalid ranges left out).
 *
 * @module
 */

import { collectMatches, type Detection, type WindowDetector } from "./_window_scan.ts";

/** True when the digits pass the Luhn check. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** True when the IBAN (spaces removed, upper case) passes the ISO 13616 mod-97 check. */
export function ibanValid(iban: string): boolean {
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= "A" ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    remainder = (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[47]|6(?:011|5)|35|30[0-5]|36|38)/;

function digitCount(text: string): number {
  return text.replace(/\D/g, "").length;
}

const PATTERNS: ReadonlyArray<{ category: string; regex: RegExp; check?: (match: string) => boolean }> = [
  {
    category: "email",
    regex: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}\b/g,
  },
  {
    category: "phone",
    regex: /(?<![\w+])\+[1-9]\d{0,2}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]?\d{2,4}){1,4}(?![\w])/g,
    check: (match) => digitCount(match) >= 8 && digitCount(match) <= 15,
  },
  { category: "phone", regex: /(?<![\w+-])(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-])\d{3}[ .-]\d{4}(?![\w-])/g },
  {
    category: "credit_card",
    regex: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g,
    check: (match) => {
      const digits = match.replace(/\D/g, "");
      return CARD_PREFIX.test(digits) && luhnValid(digits);
    },
  },
  {
    category: "iban",
    regex: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g,
    check: (match) => ibanValid(match.replace(/ /g, "")),
  },
  { category: "us_ssn", regex: /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g },
];

/** The PII window detector. */
export const PII_DETECTOR: WindowDetector = {
  name: "pii",
  detect(text: string): Detection[] {
    const out: Detection[] = [];
    for (const { category, regex, check } of PATTERNS) {
      collectMatches(
        regex,
        text,
        (match) => (!check || check(match[0]) ? { category, offset: match.index } : undefined),
        out,
      );
    }
    return out;
  },
};
