import assert from "node:assert/strict";
import { join } from "node:path";
import { openMemory } from "./open_memory.ts";
import { FileMemoryStore } from "./file_memory_store.ts";
import { InMemoryStore } from "./in_memory_store.ts";

Deno.test("provider none opens nothing, in_memory a memory store, file a directory store", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "agentry_memory_" });
  try {
    const options = { process: "writer", dataDir };
    assert.equal(await openMemory({ memory_provider: "none" }, options), undefined);
    const inMemory = await openMemory({ memory_provider: "in_memory" }, options);
    assert.ok(inMemory instanceof InMemoryStore);
    await inMemory.close();
    const byDefault = await openMemory({ memory_provider: "file" }, options);
    assert.ok(byDefault instanceof FileMemoryStore);
    assert.equal(byDefault.directory, join(dataDir, "memory", "writer"));
    await byDefault.close();
    const chosen = await openMemory(
      { memory_provider: "file", memory_persist_directory: "${MEM}" },
      { ...options, resolveReferences: (text) => text.replace("${MEM}", join(dataDir, "chosen")) },
    );
    assert.ok(chosen instanceof FileMemoryStore);
    assert.equal(chosen.directory, join(dataDir, "chosen"));
    await chosen.close();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
