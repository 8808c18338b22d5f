/**
 * The progress display of `agentry mcpcast`: one stderr line per phase (loading, parsing N
 * operations, planning, writing) with the time elapsed, shown only on a terminal and only for large
 * specs, where the phases take long enough to be worth watching; and, always, what a model is doing.
 *
 * @module
 */

import type { CliContext } from "../cli_context.ts";

/** A spec file at least this large (bytes) shows progress from the start. */
export const LARGE_SPEC_BYTES = 1024 * 1024;
/** A spec with at least this many operations shows progress once parsed. */
export const LARGE_SPEC_OPERATIONS = 200;

/** Shows the phases of one run. */
export class Progress {
  #ctx: CliContext;
  #terminal: boolean;
  #large: boolean;
  #started = performance.now();

  /** A display on `ctx`'s stderr; `large` says whether it shows before the operations are counted. */
  constructor(ctx: CliContext, options: { large: boolean }) {
    this.#ctx = ctx;
    this.#terminal = ctx.isTerminal?.("stderr") ?? false;
    this.#large = options.large;
  }

  /** Whether phases are being shown. */
  get shown(): boolean {
    return this.#terminal && this.#large;
  }

  /** Notes how many operations the spec has (a large count turns the display on). */
  operations(count: number): void {
    if (count >= LARGE_SPEC_OPERATIONS) this.#large = true;
    this.phase(`parsed ${count.toLocaleString("en-US")} operations`);
  }

  /** Shows one phase. */
  phase(text: string): void {
    if (this.shown) this.note(text);
  }

  /**
   * Shows a line whatever the spec's size or the stream (model work: curation attempts, evaluation
   * tasks; see `model_progress.ts`).
   */
  note(text: string): void {
    const seconds = ((performance.now() - this.#started) / 1000).toFixed(1);
    this.#ctx.stderr(`mcpcast: [${seconds}s] ${text}`);
  }
}

/** Whether `source` is worth a progress display before it is parsed: a URL, or a large file. */
export async function isLargeSource(source: string): Promise<boolean> {
  const trimmed = source.trim();
  if (/^https?:\/\//i.test(trimmed)) return true;
  if (trimmed.startsWith("{") || /^(openapi|swagger):/.test(trimmed)) return false;
  try {
    const info = await Deno.stat(trimmed);
    return info.size >= LARGE_SPEC_BYTES;
  } catch {
    return false;
  }
}
