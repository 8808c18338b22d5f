/**
 * Lines of the JSONL journal from the end towards the start, one chunk at a time (opening the file and
 * reading at an offset are `src/_util/file_tail.ts`'s).
 *
 * @module
 */

import { concatBytes } from "../_util/concat_bytes.ts";
import { readAt } from "../_util/file_tail.ts";

const NEWLINE = 0x0a;

/**
 * Yields the non-empty lines (without the newline) of the first `size` bytes of `file`, last line first.
 * Reads `chunkSize` bytes at a time, so memory stays bounded by the chunk plus the longest line.
 */
export async function* readLinesBackward(
  file: Deno.FsFile,
  options: { size: number; chunkSize: number },
): AsyncGenerator<Uint8Array> {
  const { size, chunkSize } = options;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new RangeError("chunkSize must be a positive integer");
  }
  let position = size;
  // Pieces of the line that continues past the start of the last chunk read, first piece first.
  let carry: Uint8Array[] = [];
  while (position > 0) {
    const start = Math.max(0, position - chunkSize);
    const chunk = await readAt(file, start, position - start);
    if (chunk.length < position - start) {
      throw new Error(`unexpected end of file at byte ${start + chunk.length}`);
    }
    position = start;
    let end = chunk.length;
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (chunk[i] !== NEWLINE) continue;
      const line = concatBytes([chunk.subarray(i + 1, end), ...carry]);
      carry = [];
      end = i;
      if (line.length > 0) yield line;
    }
    if (end > 0) carry.unshift(chunk.subarray(0, end));
  }
  const first = concatBytes(carry);
  if (first.length > 0) yield first;
}
