/**
 * File reading helpers for the JSONL journal: lines from the end towards the start, one chunk at a time.
 *
 * @module
 */

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
    position = start;
    let end = chunk.length;
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (chunk[i] !== NEWLINE) continue;
      const line = concat([chunk.subarray(i + 1, end), ...carry]);
      carry = [];
      end = i;
      if (line.length > 0) yield line;
    }
    if (end > 0) carry.unshift(chunk.subarray(0, end));
  }
  const first = concat(carry);
  if (first.length > 0) yield first;
}

/** Whether `file` is empty, missing, or ends with a newline. */
export async function endsWithNewline(file: string): Promise<boolean> {
  try {
    using handle = await Deno.open(file, { read: true });
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = new Uint8Array(1);
    await handle.seek(size - 1, Deno.SeekMode.Start);
    return (await handle.read(last)) === 1 && last[0] === NEWLINE;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return true;
    throw error;
  }
}

/** An open read handle on `file` and its current size; undefined when the file does not exist. */
export async function openForRead(file: string): Promise<{ handle: Deno.FsFile; size: number } | undefined> {
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(file, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    return { handle, size: (await handle.stat()).size };
  } catch (error) {
    handle.close();
    throw error;
  }
}

async function readAt(file: Deno.FsFile, start: number, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  await file.seek(start, Deno.SeekMode.Start);
  let offset = 0;
  while (offset < length) {
    const read = await file.read(buffer.subarray(offset));
    if (read === null) throw new Error(`unexpected end of file at byte ${start + offset}`);
    offset += read;
  }
  return buffer;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
