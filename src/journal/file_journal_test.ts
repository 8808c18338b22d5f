import assert from "node:assert/strict";
import { join } from "node:path";
import { Logger, memorySink } from "../log.ts";
import { journalContract } from "./_test_journal_contract.ts";
import { tempDir } from "../_util/temp_dir.ts";
import { FileJournal } from "./file_journal.ts";
import type { JournalEntry } from "./types.ts";

journalContract("file", async () => {
  const dir = await tempDir();
  const journal = new FileJournal({ path: join(dir.path, "journal") });
  return {
    journal,
    async [Symbol.asyncDispose]() {
      await journal.close();
      await dir[Symbol.asyncDispose]();
    },
  };
});

Deno.test("file journal keeps entries across a new instance on the same directory", async () => {
  await using dir = await tempDir();
  const first = new FileJournal({ path: dir.path });
  const entry = await first.append("writer", "step", { i: 1 });
  await first.close();
  const second = new FileJournal({ path: dir.path });
  assert.deepEqual(await second.read("writer"), [entry]);
  assert.deepEqual(await second.get("writer", entry.entry_id), entry);
  await second.close();
});

Deno.test("file journal creates its directory on the first append, one JSONL file per process", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "a", "b");
  const journal = new FileJournal({ path });
  assert.deepEqual(await journal.read("writer"), []);
  assert.equal(await journal.get("writer", crypto.randomUUID()), undefined);
  await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  const entry = await journal.append("writer", "step", { i: 1 });
  await journal.close();
  const text = await Deno.readTextFile(join(path, "writer.jsonl"));
  assert.deepEqual(text.split("\n").filter(Boolean).map((line) => JSON.parse(line)), [entry]);
});

Deno.test("file journal skips a torn last line and malformed lines with one warning per file", async () => {
  await using dir = await tempDir();
  const sink = memorySink();
  const writer = new FileJournal({ path: dir.path });
  const a = await writer.append("writer", "step", { i: 0 });
  await Deno.writeTextFile(join(dir.path, "writer.jsonl"), "not json\n[1,2]\n", { append: true });
  const b = await writer.append("writer", "step", { i: 1 });
  await writer.close();
  await Deno.writeTextFile(join(dir.path, "writer.jsonl"), '{"entry_id":"torn","proc', { append: true });

  const journal = new FileJournal({ path: dir.path, logger: new Logger("test", { sink }) });
  assert.deepEqual(await journal.read("writer"), [a, b]);
  assert.deepEqual(await journal.read("writer", { limit: 5 }), [a, b]);
  assert.equal(await journal.get("writer", "torn"), undefined);
  const warnings = sink.records.filter((r) => r.level === "warning");
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].fields.path, join(dir.path, "writer.jsonl"));

  const c = await journal.append("writer", "step", { i: 2 });
  assert.deepEqual(
    await journal.read("writer"),
    [a, b, c],
    "an append after a torn line starts a fresh line",
  );
  await journal.close();
});

Deno.test("file journal reads correctly across chunk boundaries with many small entries", async () => {
  await using dir = await tempDir();
  const writer = new FileJournal({ path: dir.path });
  const entries: JournalEntry[] = [];
  for (let i = 0; i < 60; i++) {
    entries.push(
      await writer.append("writer", i % 3 === 0 ? "tick" : "step", { i, text: "é🙂".repeat(i % 7) }),
    );
  }
  await writer.close();
  for (const chunkSize of [3, 64, 333, 65_536]) {
    const journal = new FileJournal({ path: dir.path, chunkSize });
    assert.deepEqual(await journal.read("writer"), entries, `chunkSize ${chunkSize}`);
    assert.deepEqual(
      await journal.read("writer", { limit: 13 }),
      entries.slice(-13),
      `chunkSize ${chunkSize}`,
    );
    const ticks = entries.filter((e) => e.entry_type === "tick");
    assert.deepEqual(await journal.read("writer", { type: "tick", limit: 4 }), ticks.slice(-4));
    assert.deepEqual(await journal.get("writer", entries[0].entry_id), entries[0]);
    await journal.close();
  }
});

Deno.test("file journal reads entries larger than the default 64 KiB chunk", async () => {
  await using dir = await tempDir();
  const journal = new FileJournal({ path: dir.path });
  const entries: JournalEntry[] = [];
  for (let i = 0; i < 6; i++) {
    const size = i % 2 === 0 ? 150_000 + i : 10;
    entries.push(await journal.append("writer", "blob", { i, text: "x".repeat(size) }));
  }
  assert.deepEqual(await journal.read("writer"), entries);
  assert.deepEqual(await journal.read("writer", { limit: 3 }), entries.slice(-3));
  assert.deepEqual(await journal.get("writer", entries[2].entry_id), entries[2]);
  await journal.close();
});

Deno.test("file journal rejects process names that are not safe file names", async () => {
  await using dir = await tempDir();
  const journal = new FileJournal({ path: join(dir.path, "journal") });
  for (const name of ["../escape", "1abc", "", "a b", "a.b", "a/b", "a".repeat(65)]) {
    await assert.rejects(journal.append(name, "step", {}), /invalid journal process name/, name);
    await assert.rejects(journal.read(name), /invalid journal process name/, name);
    await assert.rejects(journal.get(name, "x"), /invalid journal process name/, name);
  }
  await journal.append("a".repeat(64), "step", {});
  await journal.append("Ab_c-9", "step", {});
  await journal.close();
  const names = [];
  for await (const item of Deno.readDir(dir.path)) names.push(item.name);
  assert.deepEqual(names, ["journal"]);
});

Deno.test("file journal with sync writes a burst of appends in call order, kept by a new instance", async () => {
  await using dir = await tempDir();
  const journal = new FileJournal({ path: dir.path, sync: true });
  const written = await Promise.all(
    Array.from({ length: 64 }, (_, i) => journal.append(i % 2 ? "a" : "b", "step", { i })),
  );
  await journal.close();
  const again = new FileJournal({ path: dir.path });
  assert.deepEqual(await again.read("a"), written.filter((e) => e.process === "a"));
  assert.deepEqual(await again.read("b"), written.filter((e) => e.process === "b"));
  await again.close();
});

Deno.test("file journal leaves a line still being written out of a read", async () => {
  await using dir = await tempDir();
  const journal = new FileJournal({ path: dir.path });
  const a = await journal.append("writer", "step", { i: 0 });
  await Deno.writeTextFile(join(dir.path, "writer.jsonl"), '{"entry_id":"half', { append: true });
  assert.deepEqual(await journal.read("writer"), [a]);
  await journal.close();
});

Deno.test({
  name: "file journal keeps at most maxOpenFiles files open and reopens a closed one in order",
  ignore: Deno.build.os !== "linux", // counts descriptors in /proc/self/fd
}, async () => {
  await using dir = await tempDir();
  const journal = new FileJournal({ path: dir.path, maxOpenFiles: 2 });
  const written: JournalEntry[] = [];
  for (let round = 0; round < 3; round++) {
    for (const name of ["a", "b", "c", "d"]) written.push(await journal.append(name, "step", { round }));
    written.push(
      ...await Promise.all(["a", "b", "c"].map((name) => journal.append(name, "burst", { round }))),
    );
  }
  written.push(await journal.append("d", "step", { round: 3 }));
  // Only this journal's files count: parallel tests in the same process open and close their own.
  const journalFds = () =>
    Deno.readDirSync("/proc/self/fd").toArray().filter(({ name }) => {
      try {
        return Deno.readLinkSync(`/proc/self/fd/${name}`).startsWith(dir.path);
      } catch {
        return false; // closed meanwhile
      }
    }).length;
  const open = journalFds();
  assert.ok(open <= 2, `${open} journal files were open`);
  for (const name of ["a", "b", "c", "d"]) {
    assert.deepEqual(await journal.read(name), written.filter((e) => e.process === name), name);
  }
  await journal.close();
  assert.equal(journalFds(), 0, "closing the journal closes its files");
});
