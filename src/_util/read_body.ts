/**
 * Reading a request body with a size limit (also for chunked bodies without Content-Length) and a
 * time limit.
 *
 * @module
 */

import { concatBytes } from "./concat_bytes.ts";
import { Deadlines } from "./deadlines.ts";

const deadlines = new Deadlines();

/**
 * The raw body, or the status to answer: 413 over `limit`, 408 not received within `timeoutMs`, 400 a
 * broken stream. A body with a declared Content-Length within the limit is read in one call; others are
 * streamed and counted.
 */
export async function readLimitedBody(
  request: Request,
  limit: number,
  timeoutMs: number,
): Promise<Uint8Array | 400 | 408 | 413> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return 413;
  if (declared !== null) {
    // Not `request.body` first: touching it builds a ReadableStream, and `bytes()` then reads through it
    // instead of taking the whole body from the server in one call.
    return await deadlines.race(request.bytes().catch(() => 400 as const), timeoutMs, () => 408 as const);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  return await deadlines.race(readStreamLimited(reader, limit).catch(() => 400 as const), timeoutMs, () => {
    reader.cancel().catch(() => undefined);
    return 408 as const;
  });
}

/** Reads `reader` to the end, or stops with 413 (the reader cancelled) once more than `limit` bytes came. */
export async function readStreamLimited(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<Uint8Array | 413> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => undefined);
      return 413;
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}
