/**
 * CLI errors and exit codes.
 *
 * @module
 */

/** Exit codes: 0 success, 1 failure while running, 2 wrong usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Wrong usage: exit 2 with a one-line message. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** A failure to report in one line: exit 1. */
export class CliFailure extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "CliFailure";
  }
}

/** The first sentence of a parser message, on one line. */
export function oneLine(message: string): string {
  const first = message.split("\n")[0];
  const sentence = /^(.*?\.)(\s|$)/.exec(first)?.[1] ?? first;
  return sentence.replace(/\.$/, "");
}
