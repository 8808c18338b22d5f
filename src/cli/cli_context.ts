/**
 * What the CLI receives from `main.ts` (the only module that reads arguments, handles signals and exits).
 *
 * @module
 */

import type { EnvLookup } from "../runtime/mod.ts";

/** The CLI's view of its process. */
export interface CliContext {
  /** Every argument after the program name, as given (a relaunched child gets them again). */
  args: readonly string[];
  /** Environment lookup. */
  env: EnvLookup;
  /** Aborted with "SIGINT" or "SIGTERM" when the process is asked to stop. */
  signal: AbortSignal;
  /** Writes a line to stdout (machine output: --json, --help, --version). */
  stdout(line: string): void;
  /** Writes a line to stderr (human output and logs). */
  stderr(line: string): void;
  /**
   * Asks `question` on the terminal and resolves the line typed (without its line break), or null at
   * the end of input. Absent when the process cannot ask (commands then refuse to be interactive).
   */
  readLine?: (question: string) => Promise<string | null>;
  /** Whether a standard stream is a terminal. @default every stream is not */
  isTerminal?: (stream: "stdin" | "stdout" | "stderr") => boolean;
}
