/**
 * A 2026-07-28 answer that is slow to come goes out as an SSE stream opened at once, so the server sees
 * a client that gives up.
 *
 * Why: a 2026-07-28 client cancels a call by aborting its HTTP request. Deno 2.9's own HTTP/1.1 server
 * (the default since 2.8.3) notices that the client closed the connection while the handler has not
 * answered yet only when the whole request arrived in its first read (head and body within 1 KiB, in
 * one segment). A 2026-07-28 request carries its `_meta` envelope, so its body is often larger, and on a
 * reused keep-alive connection the body often arrives after the head: `request.signal` then never
 * fires and the call runs on until the connection is closed for another reason. Once the response has
 * started (its head sent, its body still open), Deno watches the connection and aborts
 * `request.signal` (and cancels the body) as soon as the client goes away; the SDK's per-request
 * transport then aborts the handler's signal. `--unstable-no-legacy-abort` does not change this.
 *
 * So: if `answer` settles within `afterMs` it is returned as it is (quick calls keep their JSON body);
 * otherwise a `200 text/event-stream` response is returned now and the answer, when it comes, is written
 * into it: an SSE body is relayed as it is, any other body (the JSON-RPC response) as one `message`
 * event, the same frame the SDK writes when it upgrades a call to SSE.
 *
 * @module
 */

const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
});

/** Whether `request` takes an SSE answer (its `Accept` names `text/event-stream`). */
export function acceptsEventStream(request: Request): boolean {
  return (request.headers.get("accept") ?? "").toLowerCase().includes("text/event-stream");
}

/** `text` (a JSON-RPC message) as one SSE `message` event. */
function messageFrame(text: string): string {
  const data = text.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join("\n");
  return `event: message\n${data}\n\n`;
}

function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
}

/** One slow answer's stream: the answer relayed into `sink` unless the client cancels first. */
class Relay {
  cancelled = false;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(readonly sink: ReadableStreamDefaultController<Uint8Array>) {}

  /** Writes `response`'s body into the sink as SSE, then closes it. */
  async write(response: Response): Promise<void> {
    if (!isEventStream(response)) {
      const text = await response.text();
      if (text !== "" && !this.cancelled) this.sink.enqueue(new TextEncoder().encode(messageFrame(text)));
      return;
    }
    this.#reader = response.body?.getReader();
    if (this.cancelled) await this.#reader?.cancel();
    while (this.#reader && !this.cancelled) {
      const { done, value } = await this.#reader.read();
      if (done) return;
      this.sink.enqueue(value);
    }
  }

  /** Ends the sink unless the client already cancelled it. */
  end(): void {
    if (this.cancelled) return;
    try {
      this.sink.close();
    } catch {
      // already errored by the server
    }
  }

  /** The client went away: stop relaying and release the answer's body. */
  cancel(): Promise<void> {
    this.cancelled = true;
    return this.#reader?.cancel().catch(() => undefined) ?? Promise.resolve();
  }
}

/**
 * `answer`, or, when it has not settled after `afterMs`, an SSE response carrying it once it does. A
 * rejection within `afterMs` rejects; a later one ends the stream without a message (the client, if
 * still there, sees the stream end unanswered, as when the SDK's own stream is cut).
 */
export async function streamWhenSlow(answer: Promise<Response>, afterMs: number): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), afterMs));
  try {
    const quick = await Promise.race([answer, late]);
    if (quick !== undefined) return quick;
  } finally {
    clearTimeout(timer);
  }
  let relay: Relay | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(sink) {
      const current = relay = new Relay(sink);
      answer.then((response) => current.write(response)).catch(() => undefined).finally(() => current.end());
    },
    cancel: () => relay?.cancel(),
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
