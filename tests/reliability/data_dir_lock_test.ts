/**
 * Issue 14 item 6, replayed against the real binary: "two runtimes on one data dir". Before the fix both
 * started and accepted deploys, and after a compaction in one, 25 of 46 acknowledged deploys were gone.
 * Now, while the first runtime takes deploys and removals enough to compact its store, a second runtime on
 * the same data dir exits 1 naming the directory and the holder's pid, and every acknowledged deploy
 * survives a restart of the first (tests/runtime_lock_test.ts covers the lock itself).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, tempDir } from "../_cli_harness.ts";
import { runtimeOn, runtimeStartCommand } from "./_runtime_on.ts";

const CONFIG = { model: "openai-compatible:echo", instructions: "Be kept." };
/** Deployments the test keeps (as in the issue). */
const KEPT = 46;
/** Deploy-and-remove pairs: 46 + 2 x 480 lines pass 1,000, so the store compacts. */
const CHURN = 480;

Deno.test("a second runtime exits 1 while the first deploys and compacts; every acknowledged deploy survives", async () => {
  await using dir = await tempDir();
  const dataDir = join(dir.path, "state");
  const storeFile = join(dataDir, "processes", "processes.jsonl");
  const ids = new Map<string, string>();
  {
    await using first = await runtimeOn(dataDir, { root: dir.path });
    const { client } = first;
    for (let i = 0; i < KEPT; i++) {
      const name = `kept-${i}`;
      ids.set(name, (await client.deploy(name, CONFIG)).process_id);
    }
    let churned = 0;
    const churn = async (worker: number) => {
      while (churned < CHURN) {
        churned++;
        await client.deploy(`churn-${worker}`, CONFIG);
        await client.removeProcess(`churn-${worker}`);
      }
    };
    const { args, flags } = runtimeStartCommand(dataDir, dir.path);
    const [second] = await Promise.all([
      runCli(args, { flags }, 20_000),
      ...Array.from({ length: 8 }, (_, worker) => churn(worker)),
    ]);
    assert.equal(second.code, 1, second.stderr);
    assert.equal(second.stdout, "");
    assert.deepEqual(second.stderr.trim().split("\n"), [
      `agentry: the data directory ${dataDir} is in use by another runtime (pid ${first.cli.child.pid}); ` +
      "stop it or use another --data-dir",
    ]);
    const lines = (await Deno.readTextFile(storeFile)).split("\n").filter((line) => line !== "").length;
    assert.ok(lines < KEPT + 2 * CHURN, `the store compacted (${lines} lines)`);
    assert.equal((await client.listProcesses()).total, KEPT);
    assert.equal(await first.stop(), 0);
  }
  await using again = await runtimeOn(dataDir, { root: dir.path });
  const { processes } = await again.client.listProcesses();
  assert.deepEqual(
    new Map(processes.map((p) => [p.name, p.process_id])),
    ids,
    "every acknowledged deploy is back, with its id, and no removed one",
  );
  assert.equal(await again.stop(), 0);
});
