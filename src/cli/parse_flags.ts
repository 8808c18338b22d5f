/**
 * The one command-line flag parser of the CLI: `node:util` `parseArgs`, strict, with its errors
 * turned into a one-line {@linkcode UsageError} in our words (with the nearest known flag for a
 * mistyped one); and the `--port` check the commands share.
 *
 * @module
 */

import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { oneLine, UsageError } from "./exit.ts";
import { didYouMean } from "./suggest.ts";

/** Options of {@linkcode parseFlags}. */
export interface ParseFlagsOptions<T extends ParseArgsOptionsConfig> {
  /** The flags, as `parseArgs` takes them. */
  flags: T;
  /** Whether positional arguments are allowed. @default false */
  positionals?: boolean;
}

type StrictConfig<T extends ParseArgsOptionsConfig> = {
  args: string[];
  strict: true;
  allowPositionals: boolean;
  options: T;
};

/** What {@linkcode parseFlags} returns: `parseArgs`'s `values` and `positionals`. */
export type ParsedFlags<T extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<StrictConfig<T>>>;

/**
 * Parses `args` strictly against `flags`; an unknown flag (`unknown option '--prot'; did you mean
 * --port?`), a missing value or an unexpected positional throws {@linkcode UsageError}.
 *
 * @example
 * ```ts
 * import { parseFlags } from "./parse_flags.ts";
 * const { values } = parseFlags(["--json"], { flags: { json: { type: "boolean" } } });
 * // values.json === true
 * ```
 */
export function parseFlags<const T extends ParseArgsOptionsConfig>(
  args: readonly string[],
  options: ParseFlagsOptions<T>,
): ParsedFlags<T> {
  try {
    return parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: options.positionals ?? false,
      options: options.flags,
    });
  } catch (error) {
    throw new UsageError(flagProblem(error, options.flags));
  }
}

/** `parseArgs`'s error in our words, on one line. */
function flagProblem(error: unknown, flags: ParseArgsOptionsConfig): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  const flag = quoted.replace(/ <value>$/, "");
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const known = Object.entries(flags).flatMap(([name, flag]) => [
      `--${name}`,
      ...(flag.short === undefined ? [] : [`-${flag.short}`]),
    ]);
    return `unknown option '${flag}'${didYouMean(flag, known)}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (message.includes("does not take an argument")) return `${flag} takes no value`;
    if (message.includes("ambiguous")) {
      return `${flag} needs a value (for one starting with '-', write ${flag}=-VALUE)`;
    }
    return `${flag} needs a value`;
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `unexpected argument '${quoted}'`;
  const sentence = oneLine(message);
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

/** `--port`'s value as a number (`fallback` when it is not given); throws {@linkcode UsageError} unless
 * it is an integer from 0 to 65535. */
export function parsePort(value: string | undefined, fallback: number): number {
  if (!/^\d{1,5}$/.test(value ?? "0") || Number(value ?? 0) > 65535) {
    throw new UsageError("--port must be an integer from 0 to 65535");
  }
  return value === undefined ? fallback : Number(value);
}
