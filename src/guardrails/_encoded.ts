/**
 * Encoded payloads: base64 (standard or URL alphabet, line-wrapped too) and hex runs of at least 40
 * characters, and text written with escapes (`\u0069`, `\x69`, `%69`, `&#105;`, `&#x69;`, `&lt;`),
 * decoded and scanned again. A run is reported only when it decodes to text (valid UTF-8, almost no
 * control characters) that has findings, so ordinary base64 data (images, hashes, ids) is not; escaped
 * text is reported only where decoding it finds what the raw text did not.
 *
 * @module
 */

import type { Detection } from "./_window_scan.ts";
import type { ScanFinding } from "./scan_result.ts";

/** How {@linkcode encodedPayloads} looks at decoded text. */
export interface EncodedPayloadOptions {
  /** Findings of the raw text, so escaped text that says the same thing is not reported twice. */
  known: readonly ScanFinding[];
  /** Scans decoded text. */
  scanDecoded(decoded: string): ScanFinding[];
}

const CATEGORY = "encoded_payload";
/** A run read from where {@linkcode runStarts} found one (sticky): line-wrapped runs are one run. */
const RUN = /[A-Za-z0-9+/_-]{40,}(?:={1,2}|(?:\r?\n[A-Za-z0-9+/_-]{4,})+={0,2})?/y;
const MIN_RUN = 40;
const RUN_CHARS = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-") {
  RUN_CHARS[ch.charCodeAt(0)] = 1;
}
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const ESCAPE =
  /\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}|%[0-9a-fA-F]{2}|&#[0-9]{1,7};|&#x[0-9a-fA-F]{1,6};|&(?:lt|gt|amp|quot|apos);/g;
const ESCAPE_TEST = new RegExp(ESCAPE.source);
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const UTF8 = new TextDecoder("utf-8", { fatal: true });

function base64Bytes(run: string): Uint8Array | undefined {
  let clean = run.replace(/[\r\n=]/g, "").replace(/-/g, "+").replace(/_/g, "/");
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  try {
    const binary = atob(clean + "=".repeat((4 - clean.length % 4) % 4));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function hexBytes(run: string): Uint8Array | undefined {
  if (!HEX.test(run)) return undefined;
  const bytes = new Uint8Array(run.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** The bytes as text when they are valid UTF-8 with at most 5% control characters; else undefined. */
function asText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) control++;
  }
  return text.length >= 8 && control <= text.length * 0.05 ? text : undefined;
}

/** `text` with its escapes decoded, and the source offset of every decoded character. */
function unescapeText(text: string): { decoded: string; map: number[] } {
  let decoded = "";
  const map: number[] = [];
  let last = 0;
  for (const match of text.matchAll(ESCAPE)) {
    for (let i = last; i < match.index; i++) map.push(i);
    decoded += text.slice(last, match.index);
    const token = match[0];
    let code: number;
    if (token.startsWith("&#x")) code = parseInt(token.slice(3, -1), 16);
    else if (token.startsWith("&#")) code = parseInt(token.slice(2, -1), 10);
    else if (token.startsWith("&")) code = NAMED[token.slice(1, -1)].charCodeAt(0);
    else code = parseInt(token.slice(token[0] === "%" ? 1 : 2), 16);
    decoded += code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    while (map.length < decoded.length) map.push(match.index);
    last = match.index + token.length;
  }
  for (let i = last; i < text.length; i++) map.push(i);
  return { decoded: decoded + text.slice(last), map };
}

/** Base64/hex runs of `text` (a plain loop: three times faster than a regex over every position). */
function runs(text: string): Array<{ start: number; run: string }> {
  const found: Array<{ start: number; run: string }> = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    if (code < 128 && RUN_CHARS[code] === 1) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= MIN_RUN) {
      RUN.lastIndex = start;
      const run = RUN.exec(text)?.[0] ?? text.slice(start, i);
      found.push({ start, run });
      i = Math.max(i, start + run.length - 1);
    }
    start = -1;
  }
  return found;
}

/** Encoded payloads in `text` whose decoded text has findings (see the module doc). */
export function encodedPayloads(text: string, options: EncodedPayloadOptions): Detection[] {
  const out: Detection[] = [];
  for (const { start, run } of runs(text)) {
    for (const bytes of [hexBytes(run), base64Bytes(run)]) {
      const decoded = bytes && asText(bytes);
      if (decoded !== undefined && options.scanDecoded(decoded).length > 0) {
        out.push({ category: CATEGORY, offset: start });
        break;
      }
    }
  }
  if (ESCAPE_TEST.test(text)) {
    const { decoded, map } = unescapeText(text);
    const known = new Set(options.known.map((finding) => `${finding.category}@${finding.offset}`));
    for (const finding of options.scanDecoded(decoded)) {
      const offset = map[finding.offset] ?? text.length;
      if (!known.has(`${finding.category}@${offset}`)) out.push({ category: CATEGORY, offset });
    }
  }
  return out;
}
