/**
 * The audit lines of one event-loop turn, encoded one after another in one buffer and written with one
 * synchronous write (instead of one write per line).
 *
 * @module
 */

/** A line in a batch: where its bytes end in the buffer, its text, and what the writer keeps with it. */
export interface BatchedLine<T> {
  /** Offset just past the line's bytes (its newline included). */
  end: number;
  /** The line, without its newline. */
  line: string;
  /** The writer's own data (chain state, fields for the failure log). */
  note: T;
}

/** What a write did: the lines written whole, the others, and the error that stopped it. */
export interface BatchOutcome<T> {
  /** Lines whose bytes all reached the file, in order. */
  written: BatchedLine<T>[];
  /** Lines not (or not wholly) written, in order. */
  failed: BatchedLine<T>[];
  /** Why the write stopped, when it did. */
  error?: unknown;
}

/** Lines waiting to be written together. */
export class LineBatch<T> {
  #buffer = new Uint8Array(16_384);
  #end = 0;
  #lines: BatchedLine<T>[] = [];

  /** Lines waiting. */
  get size(): number {
    return this.#lines.length;
  }

  /**
   * The buffer and the offset at which the next line's bytes go, with room for `units` UTF-16 units
   * as UTF-8 plus `extra` bytes. Nothing is kept until {@linkcode LineBatch.add}.
   */
  reserve(units: number, extra: number): { buffer: Uint8Array; offset: number } {
    const needed = this.#end + units * 3 + extra;
    if (needed > this.#buffer.length) {
      const grown = new Uint8Array(Math.max(needed, this.#buffer.length * 2));
      grown.set(this.#buffer.subarray(0, this.#end));
      this.#buffer = grown;
    }
    return { buffer: this.#buffer, offset: this.#end };
  }

  /** Keeps the line whose bytes were put in the buffer up to `end`. */
  add(end: number, line: string, note: T): void {
    this.#lines.push({ end, line, note });
    this.#end = end;
  }

  /** Writes the waiting lines with as few writes as the file takes, and empties the batch. */
  write(file: Deno.FsFile): BatchOutcome<T> {
    const lines = this.#lines;
    const end = this.#end;
    const buffer = this.#buffer;
    this.#lines = [];
    this.#end = 0;
    // Back to the usual size after a burst of large lines.
    if (buffer.length > 1 << 20) this.#buffer = new Uint8Array(16_384);
    let written = 0;
    let error: unknown;
    try {
      while (written < end) written += file.writeSync(buffer.subarray(written, end));
    } catch (caught) {
      error = caught ?? new Error("write failed");
    }
    if (error === undefined) return { written: lines, failed: [] };
    const whole = lines.findIndex((line) => line.end > written);
    const cut = whole === -1 ? lines.length : whole;
    return { written: lines.slice(0, cut), failed: lines.slice(cut), error };
  }
}
