/**
 * One page of the docs test (`tests/docs_run_test.ts`) being run: each sh block in a fresh bash (`set -euo
 * pipefail`) whose exported variables and working directory carry over to the page's next block, its
 * documented output checked; servers (`background until "TEXT"`) kept running in their own process group
 * until the page ends. Bounds: each block 90 s, a server 30 s to print its line.
 *
 * @module
 */

import { type DocBlock, missingOutput, type ShellStep } from "./_doc_blocks.ts";

const BLOCK_TIMEOUT_MS = 90_000;
const SERVER_START_MS = 30_000;

interface Server {
  readonly child: Deno.ChildProcess;
  readonly log: string;
}

/** `file:line` of a block, for messages. */
export function where(block: DocBlock): string {
  return `${block.file}:${block.line}`;
}

/** A bash script running the steps, each one's output in `out/<n>`, saving env and cwd at the end. */
function script(steps: readonly ShellStep[], state: string, background: boolean): string {
  const lines = [
    "set -euo pipefail",
    `source ${state}/env`,
    `cd "$(cat ${state}/cwd)"`,
  ];
  steps.forEach((step, index) => {
    if (background) lines.push(step.command);
    else lines.push(`{ ${step.command}\n} >${state}/out/${index} 2>&1`);
  });
  if (!background) lines.push(`export -p >${state}/env`, `pwd >${state}/cwd`);
  return lines.join("\n") + "\n";
}

/** Runs a script in its own process group (`detached`), so the block and all it started can be killed. */
function spawnBash(path: string, env: Record<string, string>): Deno.ChildProcess {
  return new Deno.Command("bash", {
    args: [path],
    clearEnv: true,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
}

function killGroup(child: Deno.ChildProcess, signal: Deno.Signal): void {
  try {
    Deno.kill(-child.pid, signal);
  } catch {
    // the group is gone
  }
}

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
}

/** The blocks of one page run so far, and the servers they started (stopped at disposal). */
export class PageRun implements AsyncDisposable {
  readonly #servers: Server[] = [];
  readonly #state: string;
  readonly #env: Record<string, string>;

  constructor(state: string, env: Record<string, string>) {
    this.#state = state;
    this.#env = env;
  }

  async setUp(cwd: string): Promise<void> {
    await Deno.mkdir(`${this.#state}/out`, { recursive: true });
    await Deno.writeTextFile(`${this.#state}/env`, "");
    await Deno.writeTextFile(`${this.#state}/cwd`, cwd);
  }

  async cwd(): Promise<string> {
    return (await Deno.readTextFile(`${this.#state}/cwd`)).trim();
  }

  /** Runs the steps to completion, then checks each documented output. */
  async foreground(block: DocBlock, steps: readonly ShellStep[]): Promise<void> {
    await Deno.remove(`${this.#state}/out`, { recursive: true });
    await Deno.mkdir(`${this.#state}/out`);
    const path = `${this.#state}/block.sh`;
    await Deno.writeTextFile(path, script(steps, this.#state, false));
    const child = spawnBash(path, this.#env);
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), BLOCK_TIMEOUT_MS);
    const status = await child.status;
    clearTimeout(timer);
    killGroup(child, "SIGKILL"); // whatever the block left running
    for (const [index, step] of steps.entries()) {
      const output = await readIfThere(`${this.#state}/out/${index}`) ?? "";
      const last = await readIfThere(`${this.#state}/out/${index + 1}`) === undefined;
      if (!status.success && last) {
        const why = status.signal ? `was killed after ${BLOCK_TIMEOUT_MS / 1000} s` : `exited ${status.code}`;
        throw new Error(`${where(block)}: \`${step.command}\` ${why}; its output:\n${output}`);
      }
      const missing = missingOutput(step.expected, output);
      if (missing !== undefined) {
        throw new Error(
          `${
            where(block)
          }: \`${step.command}\` does not print the documented "${missing}"; its output:\n${output}`,
        );
      }
    }
    if (!status.success) throw new Error(`${where(block)}: the block's shell exited ${status.code}`);
  }

  /** Starts the block in the background and waits until its output shows `until`. */
  async background(block: DocBlock, steps: readonly ShellStep[], until: string): Promise<void> {
    const log = `${this.#state}/server_${this.#servers.length}.log`;
    const path = `${this.#state}/server_${this.#servers.length}.sh`;
    await Deno.writeTextFile(path, `exec >${log} 2>&1\n${script(steps, this.#state, true)}`);
    const child = spawnBash(path, this.#env);
    this.#servers.push({ child, log });
    const deadline = Date.now() + SERVER_START_MS;
    let exited = false;
    child.status.then(() => exited = true);
    const expected = steps.flatMap((step) => step.expected);
    while (true) {
      const output = await readIfThere(log) ?? "";
      const missing = missingOutput(expected, output);
      if (output.includes(until) && missing === undefined) return;
      if (exited || Date.now() > deadline) {
        const why = exited
          ? "exited"
          : output.includes(until)
          ? `does not print the documented "${missing}"`
          : `did not print "${until}" within ${SERVER_START_MS / 1000} s`;
        throw new Error(`${where(block)}: the server ${why}; its output:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    for (const server of this.#servers) killGroup(server.child, "SIGTERM");
    for (const server of this.#servers) {
      const timer = setTimeout(() => killGroup(server.child, "SIGKILL"), 5_000);
      await server.child.status;
      clearTimeout(timer);
    }
    // the runtime's relaunched child and the servers' own children leave with their group; wait for the ports
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
