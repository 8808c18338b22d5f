/**
 * Runs `main.ts` as a subprocess for black-box CLI tests.
 *
 * @module
 */

import { fileURLToPath as fromFileUrl } from "node:url";
import { MODEL_VARIABLES, TOKEN_VARIABLE } from "../src/cli/runtime_start.ts";
import { YAML_DEBUG_VARIABLES } from "../src/cli/permissions.ts";
import { RELAUNCHED_VARIABLE } from "../src/cli/relaunch.ts";

/** Path of main.ts. */
export const MAIN = fromFileUrl(new URL("../main.ts", import.meta.url));
/** Path of deno.json. */
export const CONFIG = fromFileUrl(new URL("../deno.json", import.meta.url));

/**
 * The variables `runtime start` reads (token, relaunch marker, model providers): granted exactly, with
 * read and write of the data dir, it runs in place instead of relaunching itself.
 */
export const EXACT_ENV: readonly string[] = [TOKEN_VARIABLE, RELAUNCHED_VARIABLE, ...MODEL_VARIABLES];

/** The env flags `runtime start` holds: {@link EXACT_ENV} granted, the `yaml` debug switches ignored. */
export const EXACT_ENV_FLAGS: readonly string[] = [
  `--allow-env=${EXACT_ENV.join(",")}`,
  `--ignore-env=${YAML_DEBUG_VARIABLES.join(",")}`,
];

/** Output of a finished run. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options for a CLI subprocess. */
export interface CliOptions {
  /** Deno permission flags. @default ["-A"] */
  flags?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Working directory. */
  cwd?: string;
}

function command(args: string[], options: CliOptions): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", `--config=${CONFIG}`, ...(options.flags ?? ["-A"]), MAIN, ...args],
    env: { NO_COLOR: "1", ...options.env },
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** Runs `deno ARGS` in `cwd` to completion (killed after `timeoutMs`); its exit code and stdout + stderr. */
export async function runDeno(
  args: string[],
  options: { cwd: string; timeoutMs?: number },
): Promise<{ code: number; text: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 180_000);
  try {
    const output = await child.output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: output.code, text: decode(output.stdout) + decode(output.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the CLI to completion (bounded by `timeoutMs`). */
export async function runCli(
  args: string[],
  options: CliOptions = {},
  timeoutMs = 30_000,
): Promise<RunResult> {
  const child = command(args, options).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  try {
    const output = await child.output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

/** A running `agentry runtime start`. */
export class RunningCli implements AsyncDisposable {
  readonly child: Deno.ChildProcess;
  #stdout: string[] = [];
  #stderr: string[] = [];
  #done: Promise<void>;
  #waiters: Array<() => void> = [];

  constructor(args: string[], options: CliOptions = {}) {
    this.child = command(args, options).spawn();
    this.#done = Promise.all([
      this.#pump(this.child.stdout, this.#stdout),
      this.#pump(this.child.stderr, this.#stderr),
    ])
      .then(() => undefined);
  }

  /** Lines printed so far on stdout. */
  get stdout(): string[] {
    return this.#stdout;
  }

  /** Lines printed so far on stderr. */
  get stderr(): string[] {
    return this.#stderr;
  }

  async #pump(stream: ReadableStream<Uint8Array>, lines: string[]): Promise<void> {
    let buffer = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let index;
      while ((index = buffer.indexOf("\n")) !== -1) {
        lines.push(buffer.slice(0, index));
        buffer = buffer.slice(index + 1);
        for (const wake of this.#waiters.splice(0)) wake();
      }
    }
    if (buffer) lines.push(buffer);
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Waits until a line of `which` matches, or fails after `timeoutMs`. */
  async waitFor(which: "stdout" | "stderr", pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const line = (which === "stdout" ? this.#stdout : this.#stderr).find((l) => pattern.test(l));
      if (line !== undefined) return line;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no ${which} line matched ${pattern}; stderr:\n${this.#stderr.join("\n")}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The `--json` line `{url, token}`. */
  async listening(): Promise<{ url: string; token: string | null }> {
    return JSON.parse(await this.waitFor("stdout", /^\{"url"/));
  }

  /** Sends a signal and resolves the exit code. */
  async stop(signal: Deno.Signal = "SIGTERM"): Promise<number> {
    try {
      this.child.kill(signal);
    } catch {
      // already exited
    }
    return await this.exited();
  }

  /** Resolves the exit code once the process and its output streams ended. */
  async exited(): Promise<number> {
    const status = await this.child.status;
    await this.#done;
    return status.code;
  }

  /** SIGTERM (so a relaunching parent stops its child too), then SIGKILL after 5 s. */
  async [Symbol.asyncDispose](): Promise<void> {
    const kill = (signal: Deno.Signal) => {
      try {
        this.child.kill(signal);
      } catch {
        // already exited
      }
    };
    kill("SIGTERM");
    const timer = setTimeout(() => kill("SIGKILL"), 5_000);
    await this.child.status;
    clearTimeout(timer);
    await this.#done;
  }
}

/** A temporary directory removed on dispose. */
export async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "agentry-test-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}
