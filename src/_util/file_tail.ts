/**
 * Reading files from the end: open for reading (a missing file is `undefined`), read bytes at an
 * offset, and tell whether a file ends with a newline. The JSONL journal and the MCP audit log both
 * read their tails this way.
 *
 * @module
 */

const NEWLINE = 0x0a;

/** An open read handle on `path` and its current size; `undefined` when the file does not exist. */
export async function openForRead(path: string): Promise<{ handle: Deno.FsFile; size: number } | undefined> {
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(path, { read: true });
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

/** Up to `length` bytes of `file` from byte `offset`: fewer only when the file ends first. */
export async function readAt(file: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  await file.seek(offset, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < length) {
    const read = await file.read(bytes.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return filled === length ? bytes : bytes.subarray(0, filled);
}

/** Whether `path` is missing, empty, or ends with a newline. */
export async function endsWithNewline(path: string): Promise<boolean> {
  const opened = await openForRead(path);
  if (opened === undefined) return true;
  using handle = opened.handle;
  return opened.size === 0 || (await readAt(handle, opened.size - 1, 1))[0] === NEWLINE;
}
