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
 * - Bounds: each block 90 s, then its process group is killed (`tests/_doc_page_run.ts`). The whole run takes
 *   about a minute.
 * - Then `deno fmt --check` and `deno lint` in the copy: what the examples write stays out of the gate.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { tempDir } from "../src/_util/temp_dir.ts";
import { type DocBlock, docBlocks, proseCommand, shellSteps, tsExpected } from "./_doc_blocks.ts";
import { PageRun, where } from "./_doc_page_run.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface Page {
  readonly file: string;
  readonly blocks: DocBlock[];
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
