/**
 * Reads a server-sent event stream of JSON `data` lines (the run progress stream) as parsed values.
 *
 * @module
 */

/**
 * The JSON value of each event's `data` in `body`, in order. Comments and events without data are
 * skipped; the stream ends when the body ends. Cancels the body when the consumer stops early.
 */
export async function* readJsonEvents<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let data: string[] = [];
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
          if (data.length > 0) yield JSON.parse(data.join("\n")) as T;
          data = [];
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line[5] === " " ? 6 : 5));
        }
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
