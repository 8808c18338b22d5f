/**
 * The credentials detector: well-known key and token formats, private keys, JWTs, and
 * `key = value` assignments whose value looks random. Patterns are case-sensitive where the format is.
 *
 * @module
 */

import { collectMatches, type Detection, type WindowDetector } from "./_window_scan.ts";

interface CredentialPattern {
  category: string;
  regex: RegExp;
  /** Extra check on the match; the match is kept when it answers true. */
  check?: (match: RegExpExecArray) => boolean;
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** A value that looks generated: long enough, letters and digits, high entropy. */
function looksRandom(value: string): boolean {
  return value.length >= 16 && /[A-Za-z]/.test(value) && /[0-9]/.test(value) && entropy(value) >= 3.5;
}

const PATTERNS: readonly CredentialPattern[] = [
  { category: "aws_access_key", regex: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  {
    category: "github_token",
    regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { category: "anthropic_key", regex: /\bsk-ant-[a-z]{2,10}\d{2}-[A-Za-z0-9_-]{40,}/g },
  { category: "openai_key", regex: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g },
  { category: "stripe_key", regex: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}/g },
  { category: "google_api_key", regex: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  {
    category: "slack_token",
    regex:
      /\bxox[abposre]-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+/g,
  },
  {
    category: "private_key",
    regex: /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g,
  },
  { category: "jwt", regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  {
    category: "generic_api_key",
    regex:
      /\b(?:api[_-]?key|apikey|api[_-]?secret|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|refresh[_-]?token|secret|token|password|passwd)["']?\s*(?:[:=]|=>)\s*["']?([A-Za-z0-9_\-+/=.~]{16,200})|\bBearer\s+([A-Za-z0-9_\-+/=.~]{16,200})/gi,
    check: (match) => looksRandom(match[1] ?? match[2]),
  },
];

/** The credentials window detector. */
export const CREDENTIALS_DETECTOR: WindowDetector = {
  name: "credentials",
  detect(text: string): Detection[] {
    const out: Detection[] = [];
    for (const { category, regex, check } of PATTERNS) {
      collectMatches(
        regex,
        text,
        (match) => (!check || check(match) ? { category, offset: match.index } : undefined),
        out,
      );
    }
    return out;
  },
};
