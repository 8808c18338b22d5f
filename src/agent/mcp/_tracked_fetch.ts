/**
 * A `fetch` for the SDK's HTTP client transports that leaves nothing open after close.
 *
 * Under Deno 2.9.6 a streaming `Response` whose object has been garbage-collected is no longer cancelled
 * when its request's signal aborts, so the SDK's GET SSE stream outlived `client.close()` and kept one
 * connection (and the process) alive per client. This fetch keeps every event-stream body it hands out
 * behind a reader it holds, cancels those readers on {@linkcode TrackedFetch.close}, and sends all
 * requests through one `Deno.HttpClient` per server that close shuts, pooled idle connections included.
 *
 * @module
 */

/** The fetch signature the SDK transports accept. */
export type FetchFunction = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A fetch bound to one server connection, with the means to end everything it opened. */
export interface TrackedFetch {
  /** Use as the transport's `fetch` option. */
  fetch: FetchFunction;
  /** Streaming bodies currently open. */
  readonly openStreams: number;
  /** Cancels open streaming bodies and closes the HTTP client; later requests fail. Idempotent. */
  close(): Promise<void>;
}

function isEventStream(response: Response): boolean {
  return response.body !== null && (response.headers.get("content-type") ?? "").includes("text/event-stream");
}

/** A new {@linkcode TrackedFetch}. */
export function trackedFetch(): TrackedFetch {
  const client = Deno.createHttpClient({});
  const readers = new Set<ReadableStreamDefaultReader<Uint8Array>>();
  let closed = false;

  function track(response: Response): Response {
    const reader = response.body!.getReader();
    readers.add(reader);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done } = await reader.read();
          if (done) {
            readers.delete(reader);
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          readers.delete(reader);
          controller.error(error);
        }
      },
      cancel(reason) {
        readers.delete(reader);
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  return {
    async fetch(url, init) {
      if (closed) throw new TypeError("connection closed");
      const response = await fetch(url, { ...init, client } as RequestInit);
      if (!isEventStream(response)) return response;
      if (closed) {
        await response.body?.cancel();
        throw new TypeError("connection closed");
      }
      return track(response);
    },
    get openStreams() {
      return readers.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      const open = [...readers];
      readers.clear();
      await Promise.all(open.map((reader) => reader.cancel().catch(() => {})));
      client.close();
    },
  };
}
