/**
 * Issue 14 item 7: `kill -9` of a relaunching parent (`deno run -A main.ts runtime start`) must not leave the
 * relaunched child serving, holding the port and the data directory.
 *
 * @module
 */

import assert from "node:assert/strict";
import { RunningCli, tempDir } from "../_cli_harness.ts";

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

Deno.test("the relaunched child stops when its parent is killed with SIGKILL, and frees the data dir", async () => {
  await using dir = await tempDir();
  const args = ["runtime", "start", "--port", "0", "--json", "--data-dir", dir.path];
  let url: string;
  {
    await using parent = new RunningCli(args, { flags: ["-A"] });
    url = (await parent.listening()).url;
    await parent.waitFor("stderr", /permissions plan=/);
    assert.equal(await answers(url), true);
    await parent.stop("SIGKILL");
  }
  const deadline = Date.now() + 10_000;
  while (await answers(url) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.equal(await answers(url), false, "the child still serves after its parent died");
  // The lock is free: a new runtime starts on the same data dir.
  await using again = new RunningCli(args, { flags: ["-A"] });
  assert.match((await again.listening()).url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(await again.stop("SIGTERM"), 0);
});
