/**
 * A server-sent events reader shared by the streaming clients: `event:` and `data:` fields, multi-line
 * data, LF, CRLF and CR line ends (also split across chunks), comments ignored.
 *
 * @module
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field, `"message"` when absent. */
  event: string;
  /** The `data:` lines joined with `\n` (e.g. a JSON text, or `[DONE]`). */
  data: string;
}

/**
 * The events of an SSE byte stream, in order. An event still open when the stream ends is dropped (as
 * the SSE standard says). Leaving the loop early cancels the stream.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let finished = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        buffer += decoder.decode();
      } else buffer += decoder.decode(value, { stream: true });
      let start = 0;
      while (true) {
        let end = -1;
        for (let i = start; i < buffer.length; i++) {
          const code = buffer.charCodeAt(i);
          if (code === 10 || code === 13) {
            end = i;
            break;
          }
        }
        if (end === -1) break;
        // A CR at the end of the chunk may be the first half of a CRLF: wait for the next chunk.
        if (buffer.charCodeAt(end) === 13 && end === buffer.length - 1 && !finished) break;
        const line = buffer.slice(start, end);
        start = end + (buffer.charCodeAt(end) === 13 && buffer.charCodeAt(end + 1) === 10 ? 2 : 1);
        if (line === "") {
          if (data.length > 0) yield { event: event || "message", data: data.join("\n") };
          event = "";
          data = [];
          continue;
        }
        if (line.charCodeAt(0) === 58) continue; // ":" comment
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? "" : line.slice(colon + 1);
        if (value.charCodeAt(0) === 32) value = value.slice(1);
        if (field === "data") data.push(value);
        else if (field === "event") event = value;
      }
      buffer = buffer.slice(start);
      if (finished) return;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
