/**
 * A scripted CliContext for unit tests of commands: captured output, scripted answers, and streams
 * that are or are not terminals.
 *
 * @module
 */

import type { CliContext } from "./cli_context.ts";

/** Options of {@linkcode fakeContext}. */
export interface FakeContextOptions {
  /** Answers given to `readLine`, in order; null (or running out) is the end of input. */
  answers?: Array<string | null>;
  /** Whether stdin, stdout and stderr are terminals. @default false */
  terminal?: boolean;
  /** Environment. */
  env?: Record<string, string>;
}

/** A context for `runCli` with everything it printed and asked. */
export function fakeContext(args: string[], options: FakeContextOptions = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const asked: string[] = [];
  const answers = [...options.answers ?? []];
  const stop = new AbortController();
  const ctx: CliContext = {
    args,
    env: (name) => options.env?.[name],
    signal: stop.signal,
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    readLine: (question) => {
      asked.push(question);
      return Promise.resolve(answers.length === 0 ? null : answers.shift()!);
    },
    isTerminal: () => options.terminal ?? false,
  };
  return { ctx, stdout, stderr, asked, answersLeft: () => answers.length, stop };
}

/** A temporary directory removed on dispose. */
export async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "agentry-mcpcast-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** Names in `dir`, sorted (empty when it does not exist). */
export async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names.sort();
}
