/**
 * Reads audit log files line by line into small records for the verifier, checking each signature
 * as it goes (only the chain fields are kept, so large logs stay cheap).
 *
 * @module
 */

import { entryVerifies, isHashHex } from "./_audit_crypto.ts";

/** What a non-blank line of an audit log holds. */
export type LineKind = "entry" | "malformed" | "unsigned" | "bad_signature";

/** One non-blank line. */
export interface LogLine {
  /** Index of the file in the list given. */
  file: number;
  /** Line number, from 1. */
  line: number;
  /** What the line holds. */
  kind: LineKind;
  /** Whether the line is JSON at all (a cut-off write is not). */
  parsed: boolean;
  /** Whether the line lacks its newline (the end of a file cut short). */
  unterminated: boolean;
  /** Claimed position. */
  seq?: number;
  /** Claimed `prev_hash`. */
  prev?: string;
  /** Claimed `hmac`. */
  hmac?: string;
  /** Whether the entry says `resumed: true`. */
  resumed: boolean;
  /** Index of the first key that verifies the entry; -1 when none does. */
  keyIndex: number;
  /** Why a malformed line is malformed. */
  reason?: string;
}

/** Reads every file in order. Throws when a file cannot be read. */
export async function readLogLines(paths: readonly string[], keys: readonly CryptoKey[]): Promise<LogLine[]> {
  const lines: LogLine[] = [];
  for (const [file, path] of paths.entries()) {
    let number = 0;
    for await (const { text, terminated } of splitLines(path)) {
      number++;
      if (text.trim() === "") continue;
      lines.push(await describeLine(text, { file, line: number, unterminated: !terminated, keys }));
    }
  }
  return lines;
}

interface Position {
  file: number;
  line: number;
  unterminated: boolean;
  keys: readonly CryptoKey[];
}

async function describeLine(text: string, position: Position): Promise<LogLine> {
  const { keys, ...where } = position;
  const base = { ...where, parsed: true, resumed: false, keyIndex: -1 };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ...base, kind: "malformed", parsed: false, reason: "not JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ...base, kind: "malformed", reason: "not a JSON object" };
  }
  const entry = value as Record<string, unknown>;
  const seq = Number.isSafeInteger(entry.seq) && (entry.seq as number) >= 0 ? entry.seq as number : undefined;
  const fields = { ...base, seq, resumed: entry.resumed === true };
  if (!("hmac" in entry)) return { ...fields, kind: "unsigned" };
  if (!isHashHex(entry.hmac)) return { ...fields, kind: "bad_signature" };
  if (seq === undefined || !isHashHex(entry.prev_hash)) {
    return {
      ...fields,
      kind: "malformed",
      hmac: entry.hmac,
      reason: "signed but without a valid seq or prev_hash",
    };
  }
  const signed = { ...fields, kind: "entry" as const, prev: entry.prev_hash, hmac: entry.hmac };
  for (const [index, key] of keys.entries()) {
    if (await entryVerifies(key, entry)) return { ...signed, keyIndex: index };
  }
  return signed;
}

async function* splitLines(path: string): AsyncGenerator<{ text: string; terminated: boolean }> {
  const file = await Deno.open(path, { read: true });
  let pending = "";
  for await (const chunk of file.readable.pipeThrough(new TextDecoderStream())) {
    let from = 0;
    let index = chunk.indexOf("\n");
    while (index !== -1) {
      yield { text: pending + chunk.slice(from, index), terminated: true };
      pending = "";
      from = index + 1;
      index = chunk.indexOf("\n", from);
    }
    pending += chunk.slice(from);
  }
  if (pending !== "") yield { text: pending, terminated: false };
}
