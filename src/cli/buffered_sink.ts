/**
 * A log sink that holds records until flushed, so the first line a person sees says where the API
 * listens; afterwards it writes straight through.
 *
 * @module
 */

import { formatLogLine, type LogRecord, type LogSink } from "../log.ts";

/** Buffers log lines until {@linkcode BufferedSink.flush}, then passes them through. */
export class BufferedSink {
  #write: (line: string) => void;
  #held: string[] | undefined = [];

  constructor(write: (line: string) => void) {
    this.#write = write;
  }

  /** The sink to give a logger. */
  get sink(): LogSink {
    return (record: LogRecord) => {
      const line = formatLogLine(record);
      if (this.#held) this.#held.push(line);
      else this.#write(line);
    };
  }

  /** Writes held lines and stops holding. */
  flush(): void {
    const held = this.#held;
    this.#held = undefined;
    for (const line of held ?? []) this.#write(line);
  }
}
