/**
 * Raw TCP clients for tests of slow and hostile clients: send some bytes and read until the server closes.
 *
 * @module
 */

/** A connection that sent its bytes; `answer` resolves to everything read before the server closed. */
export interface RawClient extends Disposable {
  /** Everything read until the server closed the connection (or reset it). */
  answer: Promise<string>;
}

/** Connects to 127.0.0.1:`port`, writes `text` and reads until the server closes. */
export async function rawClient(port: number, text: string): Promise<RawClient> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(text));
  const answer = (async () => {
    const chunks: string[] = [];
    const buffer = new Uint8Array(4096);
    const decoder = new TextDecoder();
    try {
      while (true) {
        const n = await conn.read(buffer);
        if (n === null) break;
        chunks.push(decoder.decode(buffer.subarray(0, n), { stream: true }));
      }
    } catch {
      // reset by the server: what was read so far is the answer
    }
    return chunks.join("");
  })();
  return {
    answer,
    [Symbol.dispose]: () => {
      try {
        conn.close();
      } catch {
        // already closed
      }
    },
  };
}

/** A POST declaring a 100-byte body of which one byte is sent. */
export function slowPost(path: string): string {
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`;
}

/** Resolves `promise`, or rejects when it takes longer than `ms`. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
