import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../_util/temp_dir.ts";
import { FileProcessStore, MemoryProcessStore, STORE_FILE, type StoredProcess } from "./process_store.ts";

const record = (name: string): StoredProcess => ({
  name,
  process_id: `id-${name}`,
  created_at: 1,
  config: { instructions: "x" },
  desired_state: "running",
});

Deno.test("file store keeps records across instances in one owner-only log", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new FileProcessStore(join(dir, "processes"));
    await store.save(record("b"));
    await store.save(record("a"));
    await store.save({ ...record("a"), desired_state: "stopped" });
    await store.close();
    const again = new FileProcessStore(join(dir, "processes"));
    const { records, problems } = await again.list();
    assert.deepEqual(records.map((r) => `${r.name}:${r.desired_state}`), ["a:stopped", "b:running"]);
    assert.deepEqual(problems, []);
    assert.equal((await Deno.stat(join(dir, "processes", STORE_FILE))).mode! & 0o777, 0o600);
    await again.remove("a");
    await again.remove("a");
    await again.close();
    const third = new FileProcessStore(join(dir, "processes"));
    assert.deepEqual((await third.list()).records.map((r) => r.name), ["b"]);
    const lines = (await Deno.readTextFile(join(dir, "processes", STORE_FILE))).trim().split("\n");
    assert.equal(lines.length, 4, "three saves and one remove; the second remove wrote nothing");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("file store skips a torn last line, reports it, and keeps appending cleanly after it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new FileProcessStore(dir);
    await store.save(record("good"));
    await store.close();
    await Deno.writeTextFile(join(dir, STORE_FILE), '{"op":"save","record":{"name":"ha', { append: true });
    const reopened = new FileProcessStore(dir);
    const { records, problems } = await reopened.list();
    assert.deepEqual(records.map((r) => r.name), ["good"]);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /line 2: not JSON/);
    await reopened.save(record("after"));
    await reopened.close();
    const { records: later } = await new FileProcessStore(dir).list();
    assert.deepEqual(later.map((r) => r.name), ["after", "good"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("file store reports lines that are not store records", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      join(dir, STORE_FILE),
      [JSON.stringify({ op: "save", record: { name: "bad name!" } }), JSON.stringify({ op: "drop" })].join(
        "\n",
      ) +
        "\n",
    );
    const { records, problems } = await new FileProcessStore(dir).list();
    assert.deepEqual(records, []);
    assert.equal(problems.length, 2);
    assert.match(problems.join("\n"), /line 1: not a store record/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("file store skips a config nested deeper than 64 levels (an older version stored it) and lists the rest", async () => {
  await using dir = await tempDir();
  const deep = '{"a":'.repeat(4_000) + "1" + "}".repeat(4_000);
  const deepLine = `{"op":"save","record":{"name":"deep","process_id":"id-deep","created_at":1,` +
    `"config":{"context":{"initial_state":${deep}}},"desired_state":"running"}}`;
  await Deno.writeTextFile(
    join(dir.path, STORE_FILE),
    [
      JSON.stringify({ op: "save", record: record("a") }),
      deepLine,
      JSON.stringify({ op: "save", record: record("b") }),
    ]
      .join("\n") + "\n",
  );
  const store = new FileProcessStore(dir.path);
  const { records, problems } = await store.list();
  assert.deepEqual(records.map((r) => r.name), ["a", "b"]);
  assert.deepEqual(problems, [`${STORE_FILE} line 2: nested deeper than 64 levels`]);
  await store.save(record("deep"));
  assert.deepEqual((await store.list()).records.map((r) => r.name), ["a", "b", "deep"]);
  await store.close();
});

Deno.test("file store compacts its log once it grows past four times the live records", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new FileProcessStore(dir);
    for (let i = 0; i < 1200; i++) await store.save({ ...record("same"), created_at: i });
    await store.save(record("other"));
    await store.close();
    const lines = (await Deno.readTextFile(join(dir, STORE_FILE))).trim().split("\n");
    assert.ok(lines.length < 300, `compacted to ${lines.length} lines`);
    const { records } = await new FileProcessStore(dir).list();
    assert.deepEqual(records.map((r) => `${r.name}:${r.created_at}`), ["other:1", "same:1199"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("file store with sync writes a burst of changes in call order, in the processes.jsonl format", async () => {
  await using dir = await tempDir();
  const store = new FileProcessStore(dir.path, { sync: true });
  assert.equal(store.sync, true);
  await Promise.all([
    store.save(record("a")),
    store.save(record("b")),
    store.remove("a"),
    store.save({ ...record("b"), desired_state: "suspended" }),
    store.remove("missing"),
  ]);
  await store.close();
  await assert.rejects(store.save(record("late")), /closed/);
  const lines = (await Deno.readTextFile(join(dir.path, STORE_FILE))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual(lines, [
    { op: "save", record: record("a") },
    { op: "save", record: record("b") },
    { op: "remove", name: "a" },
    { op: "save", record: { ...record("b"), desired_state: "suspended" } },
  ]);
  const { records } = await new FileProcessStore(dir.path).list();
  assert.deepEqual(records.map((r) => `${r.name}:${r.desired_state}`), ["b:suspended"]);
});

Deno.test("file store in sync mode saves after a torn last line on a fresh line", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, STORE_FILE);
  await Deno.writeTextFile(
    path,
    JSON.stringify({ op: "save", record: record("old") }) + "\n" + '{"op":"remo',
  );
  const store = new FileProcessStore(dir.path, { sync: true });
  assert.match((await store.list()).problems[0], /line 2: not JSON/);
  await store.save(record("new"));
  await store.close();
  const lines = (await Deno.readTextFile(path)).split("\n");
  assert.deepEqual(lines.slice(1), [
    '{"op":"remo',
    JSON.stringify({ op: "save", record: record("new") }),
    "",
  ]);
  const { records, problems } = await new FileProcessStore(dir.path).list();
  assert.deepEqual(records.map((r) => r.name), ["new", "old"]);
  assert.equal(problems.length, 1);
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
