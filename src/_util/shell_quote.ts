/**
 * Quoting for commands shown to a user to paste into a POSIX shell.
 *
 * @module
 */

/** `value` as one shell word: unchanged when it is plain, else in single quotes. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_\/.:=@%+,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
