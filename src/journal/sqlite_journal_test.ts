import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { journalContract } from "./_test_journal_contract.ts";
import { tempDir } from "../_util/temp_dir.ts";
import { SQLITE_JOURNAL_FILE, SqliteJournal } from "./sqlite_journal.ts";

journalContract("sqlite", async () => {
  const dir = await tempDir();
  const journal = new SqliteJournal({ path: dir.path });
  return {
    journal,
    async [Symbol.asyncDispose]() {
      await journal.close();
      await dir[Symbol.asyncDispose]();
    },
  };
});

Deno.test("sqlite journal keeps entries across a reopen of the same directory", async () => {
  await using dir = await tempDir();
  const first = new SqliteJournal({ path: dir.path });
  const a = await first.append("writer", "step", { i: 0 });
  const b = await first.append("writer", "tick", { i: 1 });
  await first.close();
  const second = new SqliteJournal({ path: dir.path });
  try {
    assert.deepEqual(await second.read("writer"), [a, b]);
    assert.deepEqual(await second.get("writer", b.entry_id), b);
    const c = await second.append("writer", "step", { i: 2 });
    assert.deepEqual(await second.read("writer", { limit: 2 }), [b, c]);
  } finally {
    await second.close();
  }
});

Deno.test("sqlite journal creates its directory and a WAL-mode journal.db", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "nested", "journal");
  const journal = new SqliteJournal({ path });
  await journal.append("writer", "step", {});
  await journal.close();
  const db = new DatabaseSync(join(path, SQLITE_JOURNAL_FILE));
  try {
    assert.equal(db.prepare("PRAGMA journal_mode").get()?.journal_mode, "wal");
    const indexes = db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'journal_%'",
    ).all();
    assert.equal(indexes.length, 2);
  } finally {
    db.close();
  }
});

Deno.test("sqlite journal with sync runs synchronous FULL and keeps every entry of a burst", async () => {
  await using dir = await tempDir();
  const plain = new SqliteJournal({ path: dir.path });
  assert.equal(plain.sync, false);
  await plain.close();
  const journal = new SqliteJournal({ path: dir.path, sync: true });
  assert.equal(journal.sync, true);
  const written = await Promise.all(
    Array.from({ length: 20 }, (_, i) => journal.append("writer", "step", { i })),
  );
  await journal.close();
  const again = new SqliteJournal({ path: dir.path });
  try {
    assert.deepEqual(await again.read("writer"), written);
  } finally {
    await again.close();
  }
});

Deno.test("sqlite journal stopAt reads back across pages of rows", async () => {
  await using dir = await tempDir();
  const journal = new SqliteJournal({ path: dir.path });
  try {
    const entries = [];
    for (let i = 0; i < 1300; i++) {
      entries.push(await journal.append("writer", i % 2 ? "odd" : "even", { i }));
    }
    await journal.append("other", "even", { i: -1 });
    assert.deepEqual(await journal.read("writer", { stopAt: (e) => e.data.i === 100 }), entries.slice(100));
    const odd = await journal.read("writer", { type: "odd", stopAt: (e) => e.data.i === 101 });
    assert.deepEqual(odd, entries.slice(100).filter((e) => e.entry_type === "odd"));
    assert.deepEqual(await journal.read("writer", { stopAt: () => false }), entries);
  } finally {
    await journal.close();
  }
});
