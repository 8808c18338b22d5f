/**
 * Spec bytes to text. UTF-8, a byte order mark dropped, invalid sequences replaced (as `TextDecoder`
 * does). A JSON document with a few non-ASCII characters gets them written as `\uXXXX` escapes, which
 * JSON reads back as the same characters: the text then stays a one-byte string, half the memory of the
 * two-byte string a single non-ASCII character would otherwise force (26 MB instead of 13 MB for the
 * GitHub REST description, which has 52 of them). Text that is mostly non-ASCII is decoded as it is,
 * since escapes would make it larger.
 *
 * @module
 */

/** Decoded spec text. */
export interface SpecText {
  /** The text. */
  text: string;
  /**
   * Offsets in `text` of the six-character escapes written for non-ASCII characters, ascending; absent
   * when none were written. Maps a position in `text` back to the decoded document's.
   */
  escapes?: Uint32Array;
}

const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
/** Escapes pay while the escaped characters (6 bytes each) are fewer than this share of the ASCII ones. */
const MAX_ESCAPED_SHARE = 1 / 8;
const HEX = "0123456789abcdef";

/** Decodes spec bytes; see the module doc. */
export function decodeSpecBytes(bytes: Uint8Array): SpecText {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = start === 0 ? bytes : bytes.subarray(start);
  const decoder = new TextDecoder();
  const runs = isJsonObject(body) ? nonAsciiRuns(body) : undefined;
  if (runs === undefined || runs.length === 0) return { text: decoder.decode(body) };
  const chars: string[] = [];
  let units = 0;
  let runBytes = 0;
  for (let i = 0; i < runs.length; i += 2) {
    chars.push(decoder.decode(body.subarray(runs[i], runs[i + 1])));
    units += chars[chars.length - 1].length;
    runBytes += runs[i + 1] - runs[i];
  }
  if (units > (body.length - runBytes) * MAX_ESCAPED_SHARE) return { text: decoder.decode(body) };
  // One output buffer decoded once: the text is built without intermediate strings.
  const out = new Uint8Array(body.length - runBytes + 6 * units);
  const escapes = new Uint32Array(units);
  let from = 0;
  let at = 0;
  let e = 0;
  for (let r = 0; r < chars.length; r++) {
    out.set(body.subarray(from, runs[2 * r]), at);
    at += runs[2 * r] - from;
    for (let c = 0; c < chars[r].length; c++) {
      escapes[e++] = at;
      at = writeEscape(out, at, chars[r].charCodeAt(c));
    }
    from = runs[2 * r + 1];
  }
  out.set(body.subarray(from), at);
  return { text: decoder.decode(out), escapes };
}

/**
 * The position in the decoded document of `position` in `text`: each escape before it stands for one
 * character instead of six.
 */
export function unescapedPosition(position: number, escapes: Uint32Array | undefined): number {
  if (escapes === undefined) return position;
  let low = 0;
  let high = escapes.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (escapes[mid] < position) low = mid + 1;
    else high = mid;
  }
  return position - 5 * low;
}

/** Whether the first byte that is not JSON whitespace opens an object. */
function isJsonObject(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === OPEN_BRACE;
  }
  return false;
}

/**
 * Start and end offsets of each maximal run of non-ASCII bytes (a UTF-8 character never spans two
 * runs), or `undefined` when a run follows a backslash: escaping it there would change what the
 * backslash means.
 */
function nonAsciiRuns(bytes: Uint8Array): number[] | undefined {
  const runs: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    i = nextNonAscii(bytes, i);
    if (i === bytes.length) break;
    if (i > 0 && bytes[i - 1] === BACKSLASH) return undefined;
    const start = i;
    while (i < bytes.length && bytes[i] >= 0x80) i += 1;
    runs.push(start, i);
  }
  return runs;
}

/**
 * The offset of the first byte at or after `from` with its high bit set, else `bytes.length`. Scans
 * four bytes at a time where the buffer allows (specs are mostly ASCII, and this runs over all of it).
 */
function nextNonAscii(bytes: Uint8Array, from: number): number {
  let i = from;
  while (i < bytes.length && (bytes.byteOffset + i) % 4 !== 0) {
    if (bytes[i] >= 0x80) return i;
    i += 1;
  }
  if (i >= bytes.length) return bytes.length;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (bytes.length - i) >>> 2);
  let w = 0;
  while (w < words.length && (words[w] & 0x80808080) === 0) w += 1;
  i += w * 4;
  while (i < bytes.length && bytes[i] < 0x80) i += 1;
  return i;
}

/** Writes `\uXXXX` for one UTF-16 code unit at `at`; returns the offset after it. */
function writeEscape(out: Uint8Array, at: number, code: number): number {
  out[at] = BACKSLASH;
  out[at + 1] = 0x75;
  for (let shift = 12, i = at + 2; shift >= 0; shift -= 4, i++) out[i] = HEX.charCodeAt((code >> shift) & 15);
  return at + 6;
}
