import assert from "node:assert/strict";
import { join } from "node:path";
import { FileProcessStore, MemoryProcessStore, type StoredProcess } from "./process_store.ts";

const record = (name: string): StoredProcess => ({
  name,
  process_id: `id-${name}`,
  created_at: 1,
  config: { instructions: "x" },
  desired_state: "running",
});

Deno.test("file store keeps records across instances with owner-only permissions", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new FileProcessStore(join(dir, "processes"));
    await store.save(record("b"));
    await store.save(record("a"));
    await store.save({ ...record("a"), desired_state: "stopped" });
    const again = new FileProcessStore(join(dir, "processes"));
    const { records, problems } = await again.list();
    assert.deepEqual(records.map((r) => `${r.name}:${r.desired_state}`), ["a:stopped", "b:running"]);
    assert.deepEqual(problems, []);
    assert.equal((await Deno.stat(join(dir, "processes", "a.json"))).mode! & 0o777, 0o600);
    await again.remove("a");
    await again.remove("a");
    assert.deepEqual((await again.list()).records.map((r) => r.name), ["b"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("file store reports unreadable records instead of failing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new FileProcessStore(dir);
    await store.save(record("good"));
    await Deno.writeTextFile(join(dir, "broken.json"), "{not json");
    await Deno.writeTextFile(join(dir, "other.json"), JSON.stringify(record("mismatch")));
    const { records, problems } = await store.list();
    assert.deepEqual(records.map((r) => r.name), ["good"]);
    assert.equal(problems.length, 2);
    assert.match(problems.join("\n"), /broken\.json/);
    assert.match(problems.join("\n"), /other\.json: file name does not match/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a missing store directory lists nothing", async () => {
  const store = new FileProcessStore("/nonexistent/agentry/processes");
  assert.deepEqual(await store.list(), { records: [], problems: [] });
});

Deno.test("memory store copies records in and out", async () => {
  const store = new MemoryProcessStore();
  const r = record("a");
  await store.save(r);
  r.config.instructions = "changed";
  const { records } = await store.list();
  assert.equal(records[0].config.instructions, "x");
});
