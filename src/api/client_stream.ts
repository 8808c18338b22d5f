/**
 * Reads a server-sent event stream (the run progress stream, the runtime event stream) as parsed events.
 *
 * @module
 */

/** One server-sent event with a JSON `data`. */
export interface ServerEvent<T> {
  /** The `id:` line, or undefined. */
  id: string | undefined;
  /** The `event:` line (`message` when absent). */
  event: string;
  /** The parsed `data:` lines. */
  data: T;
}

/**
 * Each event of `body` with its id, type and parsed data, in order. Comments and events without data are
 * skipped; the stream ends when the body ends. Cancels the body when the consumer stops early.
 */
export async function* readServerEvents<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent<T>> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let data: string[] = [];
  let id: string | undefined;
  let event = "message";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, "");
        buffer = buffer.slice(newline + 1);
        if (line === "") {
          if (data.length > 0) yield { id, event, data: JSON.parse(data.join("\n")) as T };
          data = [];
          id = undefined;
          event = "message";
        } else if (line.startsWith("data:")) data.push(field(line, 5));
        else if (line.startsWith("id:")) id = field(line, 3);
        else if (line.startsWith("event:")) event = field(line, 6);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The JSON value of each event's `data` in `body`, in order (see {@linkcode readServerEvents}). */
export async function* readJsonEvents<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  for await (const event of readServerEvents<T>(body)) yield event.data;
}

function field(line: string, at: number): string {
  return line.slice(line[at] === " " ? at + 1 : at);
}
