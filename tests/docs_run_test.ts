/**
 * Runs every ```sh and ```ts block of README.md, then docs/*.md, in file order, as a reader who pastes them
 * would: a README block that stops working fails CI. Annotations and how blocks are read: `tests/_doc_blocks.ts`.
 *
 * - Where: the repository's files (`git ls-files`, tracked and untracked but not ignored) are copied to a temp
 *   dir and each page runs there from the top (one bash per block, `set -euo pipefail`; exported variables and
 *   the working directory carry over to the page's next block). Nothing lands in the clone.
 * - `npx --yes deno@VERSION` runs the `deno` running this test (a shim on PATH), and fails when VERSION is not
 *   that Deno's version. `deno install` installs into the temp dir (`DENO_INSTALL_ROOT`, its `bin` on PATH).
 * - Output: the `# ...` lines after a command, and a ts line's `console.log(...) // VALUE`, must show in its
 *   output (stdout and stderr), in order, `…` matching any text.
 * - Servers (`background until "TEXT"`) run in their own process group and are stopped when the page ends.
 *   Every port a page names must be free before it starts, or the test fails naming the port.
 * - Bounds: each block 90 s, then its process group is killed. The whole run takes about a minute.
 * - Then `deno fmt --check` and `deno lint` in the copy: what the examples write stays out of the gate.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { tempDir } from "../src/_util/temp_dir.ts";
import {
  type DocBlock,
  docBlocks,
  missingOutput,
  proseCommand,
  type ShellStep,
  shellSteps,
  tsExpected,
} from "./_doc_blocks.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BLOCK_TIMEOUT_MS = 90_000;
const SERVER_START_MS = 30_000;

interface Page {
  readonly file: string;
  readonly blocks: DocBlock[];
}

interface Server {
  readonly child: Deno.ChildProcess;
  readonly log: string;
}

async function pages(): Promise<Page[]> {
  const docs: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}docs`)) {
    if (entry.isFile && entry.name.endsWith(".md")) docs.push(`docs/${entry.name}`);
  }
  const out: Page[] = [];
  for (const file of ["README.md", ...docs.sort(), "bench/README.md"]) {
    const blocks = docBlocks(file, await Deno.readTextFile(`${ROOT}${file}`));
    if (blocks.length > 0) out.push({ file, blocks });
  }
  return out;
}

async function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; text: string }> {
  const output = await new Deno.Command(cmd, { args, cwd, stdin: "null", env: { NO_COLOR: "1" } }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, text: decode(output.stdout) + decode(output.stderr) };
}

async function copyRepository(to: string): Promise<void> {
  const listed = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT);
  if (listed.code !== 0) throw new Error(`git ls-files failed: ${listed.text}`);
  for (const file of new Set(listed.text.split("\0").filter(Boolean))) {
    const target = `${to}/${file}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    try {
      await Deno.copyFile(`${ROOT}${file}`, target);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error; // deleted in the work tree
    }
  }
}

async function writeShims(bin: string): Promise<void> {
  await Deno.mkdir(bin, { recursive: true });
  await Deno.symlink(Deno.execPath(), `${bin}/deno`);
  const version = Deno.version.deno;
  await Deno.writeTextFile(
    `${bin}/npx`,
    `#!/usr/bin/env bash
if [ "$1" = --yes ] && [ "$2" = "deno@${version}" ]; then shift 2; exec deno "$@"; fi
echo "docs test: the page runs 'npx $*', but only 'npx --yes deno@${version}' (this Deno) is mapped" >&2
exit 127
`,
  );
  await Deno.chmod(`${bin}/npx`, 0o755);
}

/** The ports a page names (URLs on 127.0.0.1, --port, *_port fields). */
function namedPorts(blocks: readonly DocBlock[]): number[] {
  const ports = new Set<number>();
  for (const block of blocks) {
    if (block.annotation?.kind === "skip") continue;
    for (const match of block.code.matchAll(/127\.0\.0\.1:(\d+)|--port[ =](\d+)|_port"?:\s*(\d+)/g)) {
      ports.add(Number(match[1] ?? match[2] ?? match[3]));
    }
  }
  return [...ports];
}

function assertPortsFree(file: string, ports: readonly number[]): void {
  for (const port of ports) {
    try {
      Deno.listen({ hostname: "127.0.0.1", port }).close();
    } catch {
      throw new Error(`port ${port} is in use, and ${file} needs it: stop what listens there and run again`);
    }
  }
}

function where(block: DocBlock): string {
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

class PageRun implements AsyncDisposable {
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

async function writeBlock(cwd: string, file: string, block: DocBlock): Promise<void> {
  if (!block.prose.includes(file)) {
    throw new Error(`${where(block)}: the prose before the block does not name ${file}`);
  }
  const path = `${cwd}/${file}`;
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, block.code + "\n");
}

async function runTs(page: PageRun, block: DocBlock): Promise<void> {
  const annotation = block.annotation;
  const cwd = await page.cwd();
  const command = proseCommand(block.prose);
  if (annotation?.kind === "check") {
    const path = `${cwd}/_doc_block_${block.line}.ts`;
    await Deno.writeTextFile(path, block.code + "\n");
    const steps = [{ command: `deno check ${path} && rm ${path}`, expected: [] }];
    return await page.foreground(block, steps);
  }
  const file = annotation?.kind === "file" ? annotation.name : command?.file;
  if (file === undefined) {
    throw new Error(
      `${
        where(block)
      }: a ts block needs a \`deno run ... NAME.ts\` code span in the prose before it, or <!-- run: file NAME -->`,
    );
  }
  await writeBlock(cwd, file, block);
  if (annotation?.kind !== "file" && command) {
    await page.foreground(block, [{ command: command.command, expected: tsExpected(block.code) }]);
  }
}

async function runPage(page: Page, copy: string, state: string, env: Record<string, string>): Promise<void> {
  assertPortsFree(page.file, namedPorts(page.blocks));
  await using run = new PageRun(state, env);
  await run.setUp(copy);
  for (const block of page.blocks) {
    const annotation = block.annotation;
    if (annotation?.kind === "skip") {
      console.log(`skip ${where(block)}: ${annotation.reason}`);
    } else if (annotation?.kind === "file" && block.lang !== "ts") {
      await writeBlock(await run.cwd(), annotation.name, block);
    } else if (block.lang === "ts") {
      await runTs(run, block);
    } else if (annotation?.kind === "background") {
      await run.background(block, shellSteps(block.code), annotation.until);
    } else if (annotation?.kind === "file" || annotation?.kind === "check") {
      throw new Error(`${where(block)}: "${annotation.kind}" is for ts blocks`);
    } else {
      await run.foreground(block, shellSteps(block.code));
    }
  }
}

Deno.test({
  name: "every sh and ts block of the README and the docs runs as written, in order, in a copy of the clone",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using dir = await tempDir();
    const copy = `${dir.path}/agentry`;
    await copyRepository(copy);
    const bin = `${dir.path}/bin`;
    await writeShims(bin);
    const env: Record<string, string> = {
      PATH: `${bin}:${dir.path}/install/bin:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      HOME: Deno.env.get("HOME") ?? dir.path,
      NO_COLOR: "1",
      DENO_INSTALL_ROOT: `${dir.path}/install`,
      TMPDIR: dir.path,
    };
    const denoDir = Deno.env.get("DENO_DIR");
    if (denoDir) env.DENO_DIR = denoDir;
    for (const [index, page] of (await pages()).entries()) {
      await runPage(page, copy, `${dir.path}/state_${index}`, env);
    }
    for (const args of [["fmt", "--check"], ["lint"]]) {
      const result = await run(Deno.execPath(), args, copy);
      if (result.code !== 0) {
        throw new Error(`after the docs ran, \`deno ${args.join(" ")}\` fails in the copy:\n${result.text}`);
      }
    }
  },
});
