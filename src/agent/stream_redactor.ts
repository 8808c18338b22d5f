/**
 * Redaction of streamed text: secret values can arrive split over several deltas, so text that might be
 * the start of a secret is held back until the next delta shows what it is (or the turn ends).
 *
 * @module
 */

/** Feeds redacted deltas to `emit`; call `flush` when the turn ends. */
export class StreamRedactor {
  #values: readonly string[];
  #redact: (text: string) => string;
  #emit: (text: string) => void;
  #pending = "";

  /** A redactor for these secret values (`redact` replaces whole values). */
  constructor(values: readonly string[], redact: (text: string) => string, emit: (text: string) => void) {
    this.#values = values.filter((v) => v.length > 0);
    this.#redact = redact;
    this.#emit = emit;
  }

  /** Adds streamed text; emits what can no longer be part of a secret. */
  push(delta: string): void {
    if (this.#values.length === 0) {
      this.#emit(delta);
      return;
    }
    const text = this.#redact(this.#pending + delta);
    const hold = this.#heldFrom(text);
    if (hold > 0) this.#emit(text.slice(0, hold));
    this.#pending = text.slice(hold);
  }

  /** Emits whatever is held (redacted). */
  flush(): void {
    if (this.#pending !== "") this.#emit(this.#redact(this.#pending));
    this.#pending = "";
  }

  /** The first index from which the rest of `text` could be the start of a secret value. */
  #heldFrom(text: string): number {
    const longest = Math.max(...this.#values.map((v) => v.length));
    for (let i = Math.max(0, text.length - longest + 1); i < text.length; i++) {
      const tail = text.slice(i);
      if (this.#values.some((value) => value.startsWith(tail))) return i;
    }
    return text.length;
  }
}
