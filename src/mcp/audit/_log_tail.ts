/**
 * Reads the end of an append-only log without loading the whole file.
 *
 * @module
 */

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
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    const size = (await file.stat()).size;
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
    const lines = new TextDecoder().decode(concat(chunks)).split("\n");
    if (start > 0) lines.shift();
    return { lines: lines.slice(-2), terminated };
  } finally {
    file.close();
  }
}

/** Whether `path` is missing, empty, or ends with a newline. */
export async function endsWithNewline(path: string): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return true;
    throw error;
  }
  try {
    const size = (await file.stat()).size;
    return size === 0 || (await readAt(file, size - 1, 1))[0] === NEWLINE;
  } finally {
    file.close();
  }
}

async function readAt(file: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  await file.seek(offset, Deno.SeekMode.Start);
  const bytes = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const read = await file.read(bytes.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return bytes.subarray(0, filled);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}
