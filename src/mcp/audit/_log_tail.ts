/**
 * Reads the end of an append-only log without loading the whole file.
 *
 * @module
 */

import { concatBytes } from "../../_util/concat_bytes.ts";
import { openForRead, readAt } from "../../_util/file_tail.ts";

/** The last lines of a log file. */
export interface LogTail {
  /** Up to the last two lines, oldest first, without their newlines (the last may be unterminated). */
  lines: string[];
  /** Whether the file ends with a newline (true for an empty file). */
  terminated: boolean;
}

const NEWLINE = 0x0a;

/**
 * The last two lines of `path`, read backwards in chunks of `chunkSize` bytes; `undefined` when the
 * file does not exist.
 */
export async function readLogTail(path: string, chunkSize = 64 * 1024): Promise<LogTail | undefined> {
  const opened = await openForRead(path);
  if (opened === undefined) return undefined;
  using file = opened.handle;
  const { size } = opened;
  if (size === 0) return { lines: [], terminated: true };
  const terminated = (await readAt(file, size - 1, 1))[0] === NEWLINE;
  const bodyEnd = terminated ? size - 1 : size;
  const chunks: Uint8Array[] = [];
  let start = bodyEnd;
  let newlines = 0;
  while (start > 0 && newlines < 2) {
    const length = Math.min(chunkSize, start);
    start -= length;
    const chunk = await readAt(file, start, length);
    chunks.unshift(chunk);
    for (const byte of chunk) if (byte === NEWLINE) newlines++;
  }
  const lines = new TextDecoder().decode(concatBytes(chunks)).split("\n");
  if (start > 0) lines.shift();
  return { lines: lines.slice(-2), terminated };
}
