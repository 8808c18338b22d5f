/**
 * Reading a request body with a size limit (also for chunked bodies without Content-Length) and a
 * time limit.
 *
 * @module
 */

/** The raw body, or the status to answer: 413 over `limit`, 408 too slow, 400 broken stream. */
export async function readLimitedBody(
  request: Request,
  limit: number,
  timeoutMs: number,
): Promise<Uint8Array | 400 | 408 | 413> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return 413;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<408>((resolve) => timer = setTimeout(() => resolve(408), timeoutMs));
  try {
    while (true) {
      const chunk = await Promise.race([reader.read(), timeout]).catch(() => 400 as const);
      if (typeof chunk === "number") return chunk;
      if (chunk.done) {
        done = true;
        break;
      }
      size += chunk.value.byteLength;
      if (size > limit) return 413;
      chunks.push(chunk.value);
    }
  } finally {
    clearTimeout(timer);
    if (!done) reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
