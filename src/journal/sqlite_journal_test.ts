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
