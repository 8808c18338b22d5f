/**
 * One runtime per data directory: `agentry runtime start` locks `<data-dir>/runtime.lock`.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, RunningCli, tempDir } from "./_cli_harness.ts";

/** The exact permissions `runtime start` needs for `dir`, so it does not relaunch itself (one process to kill). */
const exact = (dir: string) => [
  "--allow-net",
  `--allow-read=${dir}`,
  `--allow-write=${dir}`,
  "--allow-env=AGENTRY_API_TOKEN,AGENTRY_RELAUNCHED,ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL,OLLAMA_HOST,OPENAI_API_KEY,OPENAI_BASE_URL,OPENAI_COMPATIBLE_API_KEY,OPENAI_COMPATIBLE_BASE_URL",
  "--ignore-env=LOG_STREAM,LOG_TOKENS",
];

const start = (dir: string) => ["runtime", "start", "--port", "0", "--json", "--data-dir", dir];

Deno.test("a second runtime on the same data dir exits 1 naming the directory and the holder's pid", async () => {
  await using dir = await tempDir();
  const state = join(dir.path, "state");
  await using first = new RunningCli(start(state), { flags: exact(dir.path) });
  await first.listening();
  const second = await runCli(start(state), { flags: exact(dir.path) });
  assert.equal(second.code, 1);
  const lines = second.stderr.trim().split("\n");
  assert.equal(lines.length, 1, second.stderr);
  assert.match(
    lines[0],
    new RegExp(`${state.replaceAll("/", "\\/")} is in use by another runtime \\(pid ${first.child.pid}\\)`),
  );
  assert.equal(second.stdout, "");
  // Another data dir is fine meanwhile.
  await using other = new RunningCli(start(join(dir.path, "other")), { flags: exact(dir.path) });
  await other.listening();
  assert.equal(await first.stop(), 0);
  // Once the first stopped cleanly, the directory is free again.
  await using third = new RunningCli(start(state), { flags: exact(dir.path) });
  await third.listening();
});

Deno.test("the lock of a runtime killed with SIGKILL does not block a restart", async () => {
  await using dir = await tempDir();
  const state = join(dir.path, "state");
  const first = new RunningCli(start(state), { flags: exact(dir.path) });
  await first.listening();
  await first.stop("SIGKILL");
  const stale = await Deno.readTextFile(join(state, "runtime.lock"));
  assert.equal(stale.trim(), String(first.child.pid), "the killed runtime left its pid behind");
  await using again = new RunningCli(start(state), { flags: exact(dir.path) });
  await again.listening();
  assert.equal((await Deno.readTextFile(join(state, "runtime.lock"))).trim(), String(again.child.pid));
});
