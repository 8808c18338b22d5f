/**
 * Line-based questions on a terminal: the reader behind `CliContext.readLine`.
 *
 * @module
 */

/** Where a {@linkcode createLineReader} reads answers and writes questions. */
export interface LineReaderOptions {
  /** The input, opened on the first question only (so commands that never ask leave stdin alone). */
  input: () => ReadableStream<Uint8Array>;
  /** Writes a question (no line break is added). */
  write: (text: string) => void;
}

/**
 * A `readLine(question)` that writes `question`, then resolves the next line of input without its
 * line break (`\n` or `\r\n`), or null once the input has ended and no text is left.
 *
 * @example
 * ```ts
 * import { createLineReader } from "./line_reader.ts";
 * const input = () => new Blob(["yes\n"]).stream();
 * const readLine = createLineReader({ input, write: () => undefined });
 * await readLine("Continue? "); // "yes"
 * await readLine("Again? "); // null
 * ```
 */
export function createLineReader(options: LineReaderOptions): (question: string) => Promise<string | null> {
  let reader: ReadableStreamDefaultReader<string> | undefined;
  let buffer = "";
  let ended = false;
  return async (question) => {
    options.write(question);
    reader ??= options.input().pipeThrough(new TextDecoderStream()).getReader();
    while (true) {
      const end = buffer.indexOf("\n");
      if (end !== -1) {
        const line = buffer.slice(0, end).replace(/\r$/, "");
        buffer = buffer.slice(end + 1);
        return line;
      }
      if (ended) {
        if (buffer === "") return null;
        const rest = buffer;
        buffer = "";
        return rest;
      }
      const { value, done } = await reader.read();
      if (done) ended = true;
      else buffer += value;
    }
  };
}

/** Writes all of `text` to stderr, synchronously (a question must show before the read starts). */
function writeStderr(text: string): void {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) written += Deno.stderr.writeSync(bytes.subarray(written));
}

/**
 * The process's own reader: questions on stderr (with the rest of the human output, so stdout stays
 * machine-readable), answers from stdin.
 */
export function stdinLineReader(): (question: string) => Promise<string | null> {
  return createLineReader({ input: () => Deno.stdin.readable, write: writeStderr });
}

/** Whether one of the process's standard streams is a terminal. */
export function processIsTerminal(stream: "stdin" | "stdout" | "stderr"): boolean {
  return Deno[stream].isTerminal();
}
