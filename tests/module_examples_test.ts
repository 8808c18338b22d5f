/**
 * Every published entry point's module example runs as written (issue 17). Each fenced `ts` block of
 * the module doc of each `deno.json` export is written to a temp dir inside the clone (so
 * `@agentry/agentry/...` and npm names resolve through deno.json) and run with `deno run` from the
 * repository root: reads allowed, writes only into that temp dir (also its TMPDIR), net only 127.0.0.1,
 * bounded in time. An example that throws or exits non-zero fails.
 *
 * Two marks, read from a `// example: ...` line of the block, for examples that cannot end by themselves:
 * - `needs a running runtime`: the test serves a runtime on a free port with the example's token and
 *   points the example's `http://127.0.0.1:9100` at it;
 * - `serves until stopped`: the example's `port: N` becomes a free port; it passes once that port
 *   accepts a connection, and is then stopped.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Logger, memorySink } from "../src/log.ts";
import { AgentRuntime } from "../src/runtime/mod.ts";
import { ControlServer } from "../src/api/mod.ts";
import { freePort } from "./_ports.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUN_LIMIT_MS = 60_000;
const QUICKSTART_URL = "http://127.0.0.1:9100";

/** One fenced `ts` block of a module doc. */
interface Example {
  code: string;
  mark: string | undefined;
}

/** The `ts` blocks of the module doc (the doc comment holding `@module`) of `source`. */
export function moduleExamples(source: string): Example[] {
  const doc = [...source.matchAll(/\/\*\*([\s\S]*?)\*\//g)].map((m) => m[1]).find((d) =>
    d.includes("@module")
  );
  if (doc === undefined) return [];
  const text = doc.split("\n").map((line) => line.replace(/^\s*\* ?/, "")).join("\n");
  return [...text.matchAll(/^```(?:ts|typescript)[^\S\n]*\n([\s\S]*?)^```/gm)].map((m) => ({
    code: m[1],
    mark: /^\/\/ example: ([a-z ]+)/m.exec(m[1])?.[1].trim(),
  }));
}

const exports: Record<string, string> = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).exports;

/** A directory inside the clone, removed on disposal. */
async function exampleDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ dir: ROOT, prefix: ".module_example_" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

function command(file: string, dir: string): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-read",
      `--allow-write=${dir}`,
      "--allow-net=127.0.0.1",
      "--ignore-env=LOG_STREAM,LOG_TOKENS",
      file,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1", TMPDIR: dir },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** Runs the example to its end; its exit code and output. */
async function runToEnd(file: string, dir: string): Promise<{ code: number; output: string }> {
  const child = command(file, dir).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_LIMIT_MS);
  try {
    const { code, stdout, stderr } = await child.output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code, output: decode(stdout) + decode(stderr) };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a serving example until `port` accepts a connection, then stops it. */
async function runUntilServing(file: string, options: { dir: string; port: number }): Promise<void> {
  const child = command(file, options.dir).spawn();
  const output = child.output();
  try {
    const deadline = Date.now() + RUN_LIMIT_MS;
    while (true) {
      try {
        (await Deno.connect({ hostname: "127.0.0.1", port: options.port })).close();
        return;
      } catch {
        assert.ok(Date.now() < deadline, `nothing served on port ${options.port}`);
        const ended = await Promise.race([child.status, new Promise((r) => setTimeout(r, 200))]);
        if (ended !== undefined) {
          const { stdout, stderr } = await output;
          assert.fail(
            `the example ended before serving:\n${new TextDecoder().decode(stdout)}${
              new TextDecoder().decode(stderr)
            }`,
          );
        }
      }
    }
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // already ended
    }
    await output;
  }
}

/** A runtime served on a free port with `token`, for examples that talk to one. */
async function servedRuntime(token: string, dir: string) {
  const runtime = new AgentRuntime({
    dataDir: join(dir, "runtime"),
    logger: new Logger("x", { sink: memorySink() }),
  });
  const server = new ControlServer(runtime, { port: 0, authToken: token });
  await server.start();
  return {
    url: server.url,
    async [Symbol.asyncDispose]() {
      await server.stop();
      await runtime.close();
    },
  };
}

async function runExample(example: Example, dir: string, index: number): Promise<void> {
  const file = join(dir, `example_${index}.ts`);
  let code = example.code;
  if (example.mark === "serves until stopped") {
    const port = freePort();
    code = code.replace(/\bport: \d+/g, `port: ${port}`);
    await Deno.writeTextFile(file, code);
    return await runUntilServing(file, { dir, port });
  }
  if (example.mark === "needs a running runtime") {
    const token = /token: "([^"]+)"/.exec(code)?.[1];
    assert.ok(token !== undefined && code.includes(QUICKSTART_URL), "the example names no URL and token");
    await using served = await servedRuntime(token, dir);
    await Deno.writeTextFile(file, code.replaceAll(QUICKSTART_URL, served.url.replace(/\/$/, "")));
    const { code: exit, output } = await runToEnd(file, dir);
    return assert.equal(exit, 0, output);
  }
  assert.equal(example.mark, undefined, `unknown mark "${example.mark}"`);
  await Deno.writeTextFile(file, code);
  const { code: exit, output } = await runToEnd(file, dir);
  assert.equal(exit, 0, output);
}

for (const [entry, path] of Object.entries(exports)) {
  const examples = moduleExamples(await Deno.readTextFile(join(ROOT, path)));
  if (examples.length === 0) continue;
  Deno.test(`the module example of ${entry === "." ? "@agentry/agentry" : entry} (${path}) runs`, async () => {
    await using dir = await exampleDir();
    for (const [index, example] of examples.entries()) await runExample(example, dir.path, index);
  });
}

Deno.test("module examples are found: the root entry point has a runnable one", async () => {
  const examples = moduleExamples(await Deno.readTextFile(join(ROOT, "mod.ts")));
  assert.ok(examples.length > 0);
  assert.equal(examples[0].mark, undefined);
  assert.match(examples[0].code, /from "@agentry\/agentry"/);
});
