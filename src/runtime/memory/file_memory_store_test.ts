import assert from "node:assert/strict";
import { join } from "node:path";
import { FileMemoryStore, MEMORY_FILE } from "./file_memory_store.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "agentry_memory_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("memories survive a reopen; deletions are kept and compacted away at open", async () => {
  await withDir(async (dir) => {
    const first = await FileMemoryStore.open(join(dir, "nested", "memory"));
    const keep = await first.add("The staging database is db-stage-2", { source: "ops" });
    const drop = await first.add("The old database was db-legacy");
    assert.equal(await first.delete(drop), true);
    await first.close();
    const file = join(dir, "nested", "memory", MEMORY_FILE);
    assert.equal((await Deno.readTextFile(file)).trim().split("\n").length, 3);

    const second = await FileMemoryStore.open(join(dir, "nested", "memory"));
    assert.equal(second.size(), 1);
    const [hit] = await second.search("which database is staging?");
    assert.deepEqual({ id: hit.id, metadata: hit.metadata }, { id: keep, metadata: { source: "ops" } });
    assert.equal((await Deno.readTextFile(file)).trim().split("\n").length, 1);
    await second.close();
  });
});

Deno.test("a torn or foreign line is skipped at open", async () => {
  await withDir(async (dir) => {
    const good = JSON.stringify({ op: "add", id: "m1", text: "kept memory", metadata: {} });
    await Deno.writeTextFile(join(dir, MEMORY_FILE), `${good}\n{"op":"add","id":"m2","te\n[1,2]\n`);
    const memory = await FileMemoryStore.open(dir);
    assert.equal(memory.size(), 1);
    assert.equal((await memory.search("kept"))[0].id, "m1");
    await memory.close();
  });
});
